import { Card } from '@/components/debug/card';
import { LANGUAGE_TURNS, type LanguageReport } from '@/lib/debug/data';
import { formatNumber as n } from '@/lib/format';
import { languageName } from '@/lib/retrieval/index';

/** The KB's sections per language (and which have no analyzer of their own), and the newest turns per customer language. */
export function LanguagesCard({ languages }: { languages: LanguageReport }) {
  const label = (code: string) => (code === 'unrecorded' ? 'not recorded (older turns)' : `${languageName(code)} (${code})`);
  return (
    <Card
      title="Languages"
      description={`Each section is indexed with its language's analyzer; the KB's default is ${label(languages.defaultLanguage)}. Turns: the customer's language, among the newest ${n(LANGUAGE_TURNS)}.`}
      testId="health-languages"
    >
      <div className="grid gap-6 md:grid-cols-2">
        <table className="w-full text-sm" data-testid="languages-sections">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="py-1 font-medium">Sections in</th>
              <th className="py-1 text-right font-medium">sections</th>
            </tr>
          </thead>
          <tbody>
            {languages.sections.map((l) => (
              <tr key={l.language} className="border-t border-slate-100">
                <td className="py-1">
                  {label(l.language)}
                  {!l.analyzer && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">no analyzer: words only, not stemmed</span>}
                </td>
                <td className="py-1 text-right tabular-nums">{n(l.sections)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="w-full text-sm" data-testid="languages-turns">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="py-1 font-medium">Turns in</th>
              <th className="py-1 text-right font-medium">turns</th>
            </tr>
          </thead>
          <tbody>
            {languages.turns.length === 0 && (
              <tr>
                <td className="py-1 text-slate-500" colSpan={2}>No turns yet.</td>
              </tr>
            )}
            {languages.turns.map((l) => (
              <tr key={l.language} className="border-t border-slate-100">
                <td className="py-1">{label(l.language)}</td>
                <td className="py-1 text-right tabular-nums">{n(l.turns)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
