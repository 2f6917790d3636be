'use client';

import { MessageText } from './message-text';

/** A help page's section body, rendered like a reply (MessageText renders on the client: streamdown takes functions as props). */
export function HelpText({ text }: { text: string }) {
  return <MessageText text={text} />;
}
