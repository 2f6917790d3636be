/**
 * The page of the company's site the chat was used on, as the customer's browser reported it
 * (the embed's host page, or this app's own): untrusted input, stored and shown, never sent to
 * the model. A turn carries it (types.ts), and so does a hand-off (handoff-types.ts).
 */
export interface PageContext {
  url: string;
  title?: string;
}
