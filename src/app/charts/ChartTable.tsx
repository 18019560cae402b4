/**
 * A chart's numbers as an accessible table (chartModel.ts chartTable): text only, never HTML. The
 * box scrolls, so it takes focus (arrow keys scroll it) and is a named region.
 */
export function ChartTable({ id, caption, head, rows }: { id: string; caption: string; head: string[]; rows: string[][] }) {
  return (
    <div className="table-scroll chart-table" id={id} tabIndex={0} role="region" aria-label={`Table: ${caption}`}>
      <table data-testid={`${id}`}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th scope="col" key={i}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={head.length}>No data yet.</td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={r[0]}>
              <th scope="row">{r[0]}</th>
              {r.slice(1).map((c, i) => (
                <td key={i} className="num">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
