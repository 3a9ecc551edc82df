import type { Schemas } from '../api/client';
import { TableHead } from '../ui/table';

type Day = Schemas['Usage']['days'][number];

// The drawing's own units: the SVG scales to its box, the text with it.
const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 48;
// Room for today's date, centred under the last bar.
const RIGHT = 28;
const TOP = 12;
const BOTTOM = 40;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;

const TICKS = 4;

/**
 * The top of the y axis: four equal steps, each 1, 2 or 5 times a power of ten, enough for the
 * busiest day; so every tick is a whole, round number.
 */
export function axisTop(most: number): number {
  const wanted = Math.max(1, most / TICKS);
  const power = 10 ** Math.floor(Math.log10(wanted));
  const step = [1, 2, 5, 10].find((s) => s * power >= wanted)!;
  return step * power * TICKS;
}

/** A day's date as the axis and the table say it: "3 Nov", in UTC, where the service counts days; day first, as the console's other dates in English. */
export const dayLabel = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * Calls per day as bars with axes: the accepted calls and the refused ones side by side, each in
 * its colour, named in the legend. The numbers are in the table beside it; the drawing repeats
 * them for the eye, so assistive technology reads the table and skips the drawing.
 */
export function UsageChart({ days }: { days: Day[] }) {
  const top = axisTop(Math.max(0, ...days.map((d) => Math.max(d.calls - d.refused, d.refused))));
  const y = (n: number) => TOP + PLOT_H - (n / top) * PLOT_H;
  const slot = PLOT_W / days.length;
  const bar = Math.max(1, slot / 2 - 1);
  const ticks = Array.from({ length: TICKS + 1 }, (_, i) => (i * top) / TICKS);
  // A date under every seventh day, counted back from today so that today is always named.
  const labelled = (i: number) => (days.length - 1 - i) % 7 === 0;
  return (
    <figure class="usage-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
        <g class="grid">
          {ticks.map((t) => (
            <g key={t}>
              <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(t)} y2={y(t)} />
              <text x={LEFT - 6} y={y(t) + 4} text-anchor="end">
                {t}
              </text>
            </g>
          ))}
        </g>
        {days.map((d, i) => {
          const x = LEFT + i * slot + 1;
          const accepted = d.calls - d.refused;
          return (
            <g key={d.date}>
              <rect class="accepted" x={x} y={y(accepted)} width={bar} height={TOP + PLOT_H - y(accepted)} />
              <rect class="refused" x={x + bar} y={y(d.refused)} width={bar} height={TOP + PLOT_H - y(d.refused)} />
              {labelled(i) && (
                <>
                  <line class="tick" x1={x + bar} x2={x + bar} y1={TOP + PLOT_H} y2={TOP + PLOT_H + 4} />
                  <text x={x + bar} y={TOP + PLOT_H + 18} text-anchor="middle">
                    {dayLabel(d.date)}
                  </text>
                </>
              )}
            </g>
          );
        })}
        <line class="axis" x1={LEFT} x2={WIDTH - RIGHT} y1={TOP + PLOT_H} y2={TOP + PLOT_H} />
        <line class="axis" x1={LEFT} x2={LEFT} y1={TOP} y2={TOP + PLOT_H} />
        <text x={LEFT + PLOT_W / 2} y={HEIGHT - 4} text-anchor="middle" class="axis-title">
          Day (UTC)
        </text>
      </svg>
      <figcaption>
        <span class="axis-title">Calls per day, last {days.length} days</span>
        <ul class="legend" aria-label="Legend">
          <li>
            <span class="swatch accepted" /> Answered
          </li>
          <li>
            <span class="swatch refused" /> Refused
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}

/** The numbers the chart draws, one row a day, today first: the data itself, read by assistive technology and copied by anyone. */
export function UsageTable({ days }: { days: Day[] }) {
  const shown = [...days].reverse();
  return (
    <div class="usage-table" tabIndex={0} role="region" aria-label="Calls per day, as numbers">
      <table class="numbers">
        <caption>Calls per day (UTC), today first</caption>
        <TableHead columns={['Day', 'Answered', 'Refused', 'Wrong key']} />
        <tbody>
          {shown.map((d) => (
            <tr key={d.date}>
              <th scope="row">
                <time dateTime={d.date}>{dayLabel(d.date)}</time>
              </th>
              <td>{d.calls - d.refused}</td>
              <td>{d.refused}</td>
              <td>{d.wrong_key}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
