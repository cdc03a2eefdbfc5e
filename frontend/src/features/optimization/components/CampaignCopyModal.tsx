/**
 * The campaigns table's Duplicate: the creation feature's modal for the selected campaigns,
 * the table's rows read again once the copy task ends, so the copies show at once.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { DuplicateModal, type DuplicateModalProps } from '@/features/creation';
import { optimizationKeys } from '../api/keys';

export function CampaignCopyModal(props: Omit<DuplicateModalProps, 'onCopied'>) {
  const queryClient = useQueryClient();
  const onCopied = useCallback(() => void queryClient.invalidateQueries({ queryKey: [...optimizationKeys.all, 'report'] }), [queryClient]);
  return <DuplicateModal {...props} onCopied={onCopied} />;
}
