/** How many problems a part or an item has, as a small red tag (read after its title). */
export function ProblemCount({ count }: { count: number }) {
  return (
    <span className="shrink-0 rounded-full bg-red-950 px-2 py-0.5 text-xs font-semibold text-red-200">
      <span className="sr-only">, </span>
      {count === 1 ? '1 problem' : `${count} problems`}
    </span>
  );
}
