/**
 * The public face of the creation feature (campaign create and copy, docs/api/creation.md):
 * the campaigns table opens `DuplicateModal` for the campaigns selected. The keyword
 * suggester's wizard still makes its campaigns with its own calls
 * (`features/suggester/api/creation.ts`).
 */
export { DuplicateModal, type DuplicateModalProps } from './components/DuplicateModal';
