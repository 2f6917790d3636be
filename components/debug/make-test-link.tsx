import Link from 'next/link';

/** The turn page with its "Make a test" open: from the list of down-voted turns. */
export function MakeTestLink({ turnId }: { turnId: string }) {
  return (
    <Link href={`/debug/turns/${encodeURIComponent(turnId)}?test=1#make-test`} className="ml-2 whitespace-nowrap text-xs font-medium text-brand-700 hover:underline" data-testid="make-test-link">
      Make a test
    </Link>
  );
}
