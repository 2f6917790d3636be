import { Card, Stat } from '@/components/debug/card';
import type { StorageReport } from '@/lib/debug/data';
import { formatNumber as n } from '@/lib/format';

/** Where turns are stored and what retention keeps (TRACE_RETENTION_DAYS). */
export function StorageCard({ storage }: { storage: StorageReport }) {
  const { retention } = storage;
  return (
    <Card title="Stored turns" description="Where the traces behind these pages are kept, and for how long." testId="health-storage">
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Store" value={storage.engine} hint={storage.where} testId="storage-engine" />
        <Stat label="Turns kept" value={n(storage.turns)} hint={storage.oldestTurnAt ? `oldest ${storage.oldestTurnAt.slice(0, 10)}` : 'none yet'} />
        <Stat
          label="Retention"
          value={retention ? `${n(retention.days)} days` : 'everything'}
          hint={retention ? 'older turns are deleted in small batches' : 'TRACE_RETENTION_DAYS is not set'}
          testId="storage-retention"
        />
        <Stat
          label="Last clean-up"
          value={retention?.lastRunAt ? `${n(retention.lastDeleted ?? 0)} deleted` : '—'}
          hint={retention?.lastError ? `stopped: ${retention.lastError}` : retention?.lastRunAt ? `by this instance, ${retention.lastRunAt.slice(0, 16).replace('T', ' ')} UTC` : 'not run yet'}
        />
        <Stat
          label="Turns not recorded"
          value={n(storage.writes.lost)}
          hint={
            storage.writes.lastLost
              ? `by this instance; last ${storage.writes.lastLost.at.slice(0, 16).replace('T', ' ')} UTC, turn ${storage.writes.lastLost.turnId}: ${storage.writes.lastLost.reason}`
              : `by this instance since it started${storage.writes.retrying ? `; ${n(storage.writes.retrying)} ending(s) being retried now` : ''}`
          }
          testId="storage-unrecorded"
        />
      </dl>
    </Card>
  );
}
