/** How many problems a part or an item has, as a small red tag. */
export function ProblemCount({ count }: { count: number }) {
  return (
    <span aria-hidden="true" className="shrink-0 rounded-full bg-red-950 px-2 py-0.5 text-xs font-semibold text-red-200">
      {problemsText(count)}
    </span>
  );
}


export function problemsText(count: number): string {
  return count === 1 ? '1 problem' : `${count} problems`;
}

/** A title with its problems, as a screen reader reads it (the tag itself is hidden from it). */
export function withProblems(title: string, count: number): string | undefined {
  return count > 0 ? `${title}, ${problemsText(count)}` : undefined;
}

/** Where a problem is, as the owner reads it: `projects[2].codeUrl` in Projects is "Projects, item 3: code url". */
export function placeOf(path: string, part: string): string {
  const item = /\[(\d+)\]/.exec(path);
  const field = /[a-z][A-Za-z]*$/.exec(path)?.[0].replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return `${part}${item ? `, item ${Number(item[1]) + 1}` : ''}${field ? `: ${field}` : ''}`;
}
