/**
 * A small log-log line chart as SVG text, no dependency: x = corpus size (sections),
 * y = p50 latency (µs), one line per contender, with a legend.
 */

export interface Series {
  name: string;
  points: { x: number; y: number }[];
}

const COLORS = ['#d62728', '#ff7f0e', '#1f77b4', '#2ca02c', '#9467bd', '#8c564b', '#7f7f7f', '#e377c2'];

function decadesAround(min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const out: number[] = [];
  for (let e = lo; e <= hi; e++) out.push(10 ** e);
  return out;
}

function formatTick(v: number, unit: string): string {
  if (unit === 'µs') {
    if (v >= 1e6) return `${v / 1e6} s`;
    if (v >= 1e3) return `${v / 1e3} ms`;
    return `${v} µs`;
  }
  return v >= 1000 ? `${v / 1000}k` : String(v);
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function logLogChart({
  title,
  series,
  xLabel,
  yLabel,
  width = 760,
  height = 480,
}: {
  title: string;
  series: Series[];
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
}): string {
  const all = series.flatMap((s) => s.points).filter((p) => p.x > 0 && p.y > 0);
  if (all.length === 0) throw new Error('nothing to plot');
  const xTicks = decadesAround(Math.min(...all.map((p) => p.x)), Math.max(...all.map((p) => p.x)));
  const yTicks = decadesAround(Math.min(...all.map((p) => p.y)), Math.max(...all.map((p) => p.y)));
  const margin = { left: 70, right: 200, top: 40, bottom: 50 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const lx = (v: number) => Math.log10(v);
  const [x0, x1] = [lx(xTicks[0]!), lx(xTicks.at(-1)!)];
  const [y0, y1] = [lx(yTicks[0]!), lx(yTicks.at(-1)!)];
  const sx = (v: number) => margin.left + ((lx(v) - x0) / (x1 - x0 || 1)) * plotW;
  const sy = (v: number) => margin.top + plotH - ((lx(v) - y0) / (y1 - y0 || 1)) * plotH;
  const f = (n: number) => n.toFixed(1);

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${width / 2 - margin.right / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${escapeXml(title)}</text>`,
  );
  for (const t of xTicks) {
    parts.push(
      `<line x1="${f(sx(t))}" y1="${margin.top}" x2="${f(sx(t))}" y2="${margin.top + plotH}" stroke="#e5e5e5"/>`,
      `<text x="${f(sx(t))}" y="${margin.top + plotH + 18}" text-anchor="middle" fill="#444">${formatTick(t, 'x')}</text>`,
    );
  }
  for (const t of yTicks) {
    parts.push(
      `<line x1="${margin.left}" y1="${f(sy(t))}" x2="${margin.left + plotW}" y2="${f(sy(t))}" stroke="#e5e5e5"/>`,
      `<text x="${margin.left - 8}" y="${f(sy(t) + 4)}" text-anchor="end" fill="#444">${formatTick(t, 'µs')}</text>`,
    );
  }
  parts.push(
    `<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
    `<text x="${margin.left + plotW / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(xLabel)}</text>`,
    `<text transform="translate(16 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const pts = s.points.filter((p) => p.x > 0 && p.y > 0).sort((a, b) => a.x - b.x);
    if (pts.length > 1) {
      parts.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map((p) => `${f(sx(p.x))},${f(sy(p.y))}`).join(' ')}"/>`,
      );
    }
    for (const p of pts) parts.push(`<circle cx="${f(sx(p.x))}" cy="${f(sy(p.y))}" r="3.5" fill="${color}"/>`);
    const ly = margin.top + 10 + i * 20;
    const lx0 = margin.left + plotW + 16;
    parts.push(
      `<line x1="${lx0}" y1="${ly}" x2="${lx0 + 22}" y2="${ly}" stroke="${color}" stroke-width="2"/>`,
      `<circle cx="${lx0 + 11}" cy="${ly}" r="3.5" fill="${color}"/>`,
      `<text x="${lx0 + 28}" y="${ly + 4}">${escapeXml(s.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
