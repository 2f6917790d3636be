import type { LoadNotice } from '../../retrieval/index';
import type { Finding } from '../types';
import type { Check } from './types';

/** Containers named in the one `containers` finding. */
const CONTAINER_EXAMPLES = 5;

/**
 * What the loader skipped or read as structure (lib/retrieval/kb/load.ts): broken
 * unpinned files left out, colliding heading paths, headings and files with nothing to
 * send, and containers.
 */
export const loadReport: Check = {
  id: 'load-report',
  kinds: ['file-skipped', 'heading-collision', 'heading-skipped', 'containers'],
  run({ kb }) {
    const notices = kb.notices ?? [];
    const findings: Finding[] = [
      ...(kb.skipped ?? []).map(
        (s): Finding => ({
          kind: 'file-skipped',
          level: 'error',
          file: s.file,
          line: s.line,
          message: `${s.reason}: this file was left out, nothing in it can be sent`,
          suggestion: 'fix the file; the rest of the knowledge base is served meanwhile',
        }),
      ),
      ...notices.filter((n) => n.kind === 'duplicate-heading').map((n) => noticeFinding(n, 'heading-collision', 'warning')),
      ...notices
        .filter((n) => n.kind === 'empty-heading' || n.kind === 'untitled-heading' || n.kind === 'no-content')
        .map((n) => noticeFinding(n, 'heading-skipped', 'info')),
    ];
    const containers = notices.filter((n) => n.kind === 'container');
    if (containers.length) findings.push(containersFinding(containers));
    return { findings };
  },
};

function noticeFinding(notice: LoadNotice, kind: Finding['kind'], level: Finding['level']): Finding {
  return { kind, level, file: notice.file, line: notice.line, message: notice.message };
}

function containersFinding(containers: LoadNotice[]): Finding {
  const examples = containers.slice(0, CONTAINER_EXAMPLES).map((c) => `${c.file}:${c.line}`);
  return {
    kind: 'containers',
    level: 'info',
    file: containers[0]!.file,
    line: containers[0]!.line,
    message:
      `${containers.length} heading${containers.length === 1 ? ' has' : 's have'} no text of ${containers.length === 1 ? 'its' : 'their'} own ` +
      `and live${containers.length === 1 ? 's' : ''} on in the heading paths of the sections under them (${examples.join(', ')}${containers.length > examples.length ? ', …' : ''})`,
    details: { count: containers.length, containers: containers.map((c) => ({ file: c.file, line: c.line })) },
  };
}
