/**
 * Members the server sends that the OpenAPI document does not name yet, by component. The
 * contract checks of the tests (`contract.ts`) accept exactly these beside the document's
 * own members, and the features that read them add them to the generated schema by name
 * (nothing else is taken on trust). `document-gaps.test.ts` fails once the document names one
 * of them, so the entry goes when the server's document is fixed.
 */
export interface DocumentGap {
  /** Members the server sends beyond the component's own. */
  members: string[];
  /** The component names its members in prose only: any member is taken. */
  open?: boolean;
  why: string;
}

// ReportItem's level columns (campaignId, keyword, dailyBudget, …) are properties of the
// document since the report's rows are described column by column; nothing is left here.
export const DOCUMENT_GAPS: Record<string, DocumentGap> = {};
