/**
 * The public face of the negative keyword lists feature (docs/api/creation.md "Negative
 * keyword lists"): the campaigns table's toolbar opens `NegativeListsModal`, passing the
 * places it offers (`PlaceSource`: the campaign group's campaigns and a campaign's ad groups,
 * which the table reads from its report).
 */
export { NegativeListsModal, type NegativeListsModalProps } from './components/NegativeListsModal';
export type { ListScope, PlaceOption, PlaceSource } from './components/places';
