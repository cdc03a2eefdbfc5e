/** The plan's modals of every signed-in page: the upsell modal and the limit modal. */
import { LimitModal } from './LimitModal';
import { UpsellModal } from './UpsellModal';

export function PlanPrompts() {
  return (
    <>
      <UpsellModal />
      <LimitModal />
    </>
  );
}
