import { Streamdown, defaultRemarkPlugins } from 'streamdown';
import { remarkHtmlAsText, safeUrl } from '@/lib/chat/markdown';
import { REPLY_ELEMENTS } from './reply-elements';

/**
 * Renders an assistant reply's Markdown with `streamdown` (made for text that is still
 * streaming: an unclosed `**`, link or code fence renders as what it will become, and blocks
 * already complete are not re-rendered). Elements are our own (the widget's look, no copy or
 * download buttons, no link-confirmation dialog: reply-elements.tsx); links and raw HTML follow
 * lib/chat/markdown.ts.
 * Nothing here needs eval, a remote load or a <style> element, so it runs under the page CSP.
 */

const REMARK = [...Object.values(defaultRemarkPlugins), remarkHtmlAsText];
// None of streamdown's rehype plugins: rehype-raw is what would turn raw HTML into elements
// (here it is text, see remarkHtmlAsText), so every element comes from Markdown syntax and
// sanitizing has nothing to remove; rehype-harden's defaults allow any protocol, and its
// sanitize step drops mixed-case schemes (`HTTPS://`): safeUrl decides about URLs instead.
const REHYPE: [] = [];

export function MessageText({ text }: { text: string }) {
  return (
    <Streamdown
      className="space-y-2 break-words"
      components={REPLY_ELEMENTS}
      remarkPlugins={REMARK}
      rehypePlugins={REHYPE}
      urlTransform={safeUrl}
      controls={false}
      linkSafety={{ enabled: false }}
      lineNumbers={false}
    >
      {text}
    </Streamdown>
  );
}
