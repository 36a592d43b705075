/**
 * Move up, Move down and Remove for one item of a list, each named after the item
 * ("Move project Shop up"). After a move, focus follows the button to the item's new place,
 * so a keyboard user can press it again.
 */
import { fieldId } from './fields';

export function moveItem<T>(list: T[], from: number, to: number): void {
  if (to < 0 || to >= list.length) return;
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item as T);
}

export function ListControls({
  listPath,
  index,
  count,
  name,
  onMove,
  onRemove,
}: {
  listPath: string;
  index: number;
  count: number;
  /** The item in words, e.g. `project "Shop"`. */
  name: string;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const buttonId = (direction: 'up' | 'down', at: number) => `${fieldId(`${listPath}[${at}]`)}-move-${direction}`;
  function move(direction: 'up' | 'down') {
    const to = direction === 'up' ? index - 1 : index + 1;
    onMove(to);
    // The item's buttons at its new index, once React has drawn it there.
    requestAnimationFrame(() => {
      const target = document.getElementById(buttonId(direction, to));
      const fallback = document.getElementById(buttonId(direction === 'up' ? 'down' : 'up', to));
      ((target as HTMLButtonElement | null)?.disabled ? fallback : target)?.focus();
    });
  }
  return (
    <div className="flex flex-wrap gap-2">
      <button
        type="button"
        id={buttonId('up', index)}
        className="btn btn-secondary px-3"
        disabled={index === 0}
        onClick={() => move('up')}
        aria-label={`Move ${name} up`}
      >
        ↑ Up
      </button>
      <button
        type="button"
        id={buttonId('down', index)}
        className="btn btn-secondary px-3"
        disabled={index === count - 1}
        onClick={() => move('down')}
        aria-label={`Move ${name} down`}
      >
        ↓ Down
      </button>
      <button type="button" className="btn btn-ghost px-3 text-red-300" onClick={onRemove} aria-label={`Remove ${name}`}>
        Remove
      </button>
    </div>
  );
}
