/**
 * Above the embedded chat: who it is for — "Signed in as …" for a verified user — or, when the
 * page passed an identity that did not verify, the error and that the chat is anonymous.
 */
export function IdentityBar({ notice, user }: { notice: string | undefined; user: { id: string; name?: string } | undefined }) {
  if (notice) {
    return (
      <p role="alert" data-testid="embed-identity-error" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-xs text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        We could not verify your account, so this chat is anonymous: {notice}.
      </p>
    );
  }
  if (!user) return null;
  return (
    <p data-testid="embed-identity" className="border-b border-slate-200 bg-slate-50 px-4 py-1.5 text-xs text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
      Signed in as {user.name ?? user.id}
    </p>
  );
}
