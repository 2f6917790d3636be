/**
 * The safety rules for rendering chat replies as Markdown (components/chat/message-text.tsx
 * renders them with `streamdown`, the AI SDK's streaming Markdown renderer):
 *
 * - Links only to `http:`, `https:` and `mailto:` URLs (any case). Everything else — `javascript:`,
 *   `data:`, `vbscript:`, relative and protocol-relative (`//host`) URLs — is not a link; its
 *   text stays.
 * - No raw HTML: an HTML tag in a reply is shown as the text it is (remarkHtmlAsText), never
 *   parsed into elements.
 *
 * Why not streamdown's defaults: they parse raw HTML (rehype-raw) and let links to any
 * protocol through (rehype-harden with `allowedProtocols: ["*"]`).
 */

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** `url` if it is an absolute http(s) or mailto URL, else null (the element is then not a link). */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  // Absolute URLs only: a scheme, then for http(s) an authority. `//host` and paths are relative.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return null;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? trimmed : null;
}

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem']);

/** A remark plugin: every raw HTML node becomes its source as text (a paragraph where it stood as a block). */
export function remarkHtmlAsText() {
  const walk = (node: MdNode) => {
    node.children = node.children?.map((child) => {
      if (child.type !== 'html') return walk(child), child;
      const text = { type: 'text', value: child.value ?? '' };
      return FLOW_PARENTS.has(node.type) ? { type: 'paragraph', children: [text] } : text;
    });
  };
  return walk;
}
