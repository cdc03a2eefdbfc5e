/**
 * /optimization (docs/product.md#2-layout: Ads Optimization goes to the deepest level the active
 * account and org allow): the active campaign group's campaigns, else the active account's
 * campaign groups. Without any account the user goes to the API connection screen
 * (docs/product.md#4-sign-in-account-and-session).
 */
import { Center, Loader } from '@mantine/core';
import { Navigate } from 'react-router';
import { MessagePage } from '@/components/MessagePage';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { useActiveAccount } from '../hooks/useActiveAccount';
import { campaignsPath, CONNECT_PATH, orgsPath } from '../paths';

export function OptimizationHome() {
  const { account, org, isLoading, error } = useActiveAccount();
  if (isLoading) {
    return (
      <Center mih="40vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (error) return <MessagePage title={t('error.screenTitle')} text={errorMessage(error)} />;
  const to = account ? (org ? campaignsPath(account._id, org.orgId) : orgsPath(account._id)) : CONNECT_PATH;
  return <Navigate to={to} replace />;
}
