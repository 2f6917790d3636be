import { Fragment, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from '@/lib/chat/markdown';

/** Renders an assistant reply's Markdown as React elements (no HTML strings). */

function inlines(nodes: Inline[]): ReactNode {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'strong':
        return (
          <strong key={i} className="font-semibold text-slate-900">
            {inlines(node.children)}
          </strong>
        );
      case 'em':
        return <em key={i}>{inlines(node.children)}</em>;
      case 'code':
        return (
          <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
            {node.text}
          </code>
        );
      case 'link':
        return (
          <a
            key={i}
            href={node.href}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-700"
          >
            {inlines(node.children)}
          </a>
        );
    }
  });
}

function blocks(nodes: Block[]): ReactNode {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'paragraph':
        return (
          <p key={i} className="whitespace-pre-line">
            {inlines(node.children)}
          </p>
        );
      case 'heading':
        return (
          <p key={i} className="font-semibold text-slate-900">
            {inlines(node.children)}
          </p>
        );
      case 'list': {
        const List = node.ordered ? 'ol' : 'ul';
        return (
          <List
            key={i}
            start={node.ordered && node.start !== 1 ? node.start : undefined}
            className={`space-y-1 pl-5 ${node.ordered ? 'list-decimal' : 'list-disc'} marker:text-slate-400`}
          >
            {node.items.map((item, j) => (
              <li key={j}>{inlines(item)}</li>
            ))}
          </List>
        );
      }
      case 'quote':
        return (
          <blockquote key={i} className="space-y-2 rounded-r-lg border-l-[3px] border-brand-400 bg-brand-50 py-2 pl-3 pr-2.5 text-slate-700">
            {blocks(node.children)}
          </blockquote>
        );
      case 'code':
        return (
          <pre key={i} className="overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
            <code>{node.text}</code>
          </pre>
        );
      case 'table':
        return (
          <div key={i} className="overflow-x-auto">
            <table className="w-full border-collapse text-left text-xs">
              <thead>
                <tr>
                  {node.header.map((cell, j) => (
                    <th key={j} className="border-b border-slate-300 px-2 py-1 font-semibold">
                      {inlines(cell)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {node.rows.map((row, j) => (
                  <tr key={j}>
                    {row.map((cell, k) => (
                      <td key={k} className="border-b border-slate-100 px-2 py-1 align-top">
                        {inlines(cell)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
    }
  });
}

export function MessageText({ text }: { text: string }) {
  return <div className="space-y-2 break-words">{blocks(parseMarkdown(text))}</div>;
}
