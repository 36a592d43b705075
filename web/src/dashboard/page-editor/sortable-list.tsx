/**
 * A list the owner reorders by dragging an item's handle (mouse, pen or touch) or with the
 * keyboard: focus the handle, Space or Enter lifts the item, the arrow keys move it, Space or
 * Enter drops it and Escape puts it back. Each step is announced to screen readers in words
 * ("Project Shop is over position 2 of 5"). dnd-kit does the dragging; each item keeps a key of
 * its own while it moves, so its fields and the handle's focus go with it.
 */
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical } from 'lucide-react';
import { useCallback, useRef, useState, type ReactNode } from 'react';

export function moveItem<T>(list: T[], from: number, to: number): void {
  if (to < 0 || to >= list.length || from === to) return;
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item as T);
}

let lastKey = 0;
function freshKey(): string {
  lastKey += 1;
  return `item-${lastKey}`;
}

/**
 * A React key per item that follows it when it moves or another is removed. A list that changed
 * length elsewhere (a reload, a merge) gets keys added or dropped at its end.
 */
export function useListKeys(length: number) {
  const [keys, setKeys] = useState<string[]>(() => Array.from({ length }, freshKey));
  let current = keys;
  if (keys.length !== length) {
    current = keys.length < length ? [...keys, ...Array.from({ length: length - keys.length }, freshKey)] : keys.slice(0, length);
    setKeys(current);
  }
  const append = useCallback((): string => {
    const key = freshKey();
    setKeys((k) => [...k, key]);
    return key;
  }, []);
  const remove = useCallback((i: number) => setKeys((k) => k.filter((_, j) => j !== i)), []);
  const move = useCallback(
    (from: number, to: number) =>
      setKeys((k) => {
        const next = [...k];
        moveItem(next, from, to);
        return next;
      }),
    [],
  );
  return { keys: current, append, remove, move };
}

const INSTRUCTIONS =
  'To reorder, press Space or Enter to pick the item up, the arrow keys to move it, Space or Enter to drop it, or Escape to put it back.';

export function SortableList({
  keys,
  name,
  onMove,
  grid = false,
  className,
  children,
}: {
  keys: string[];
  /** The item at an index in words, e.g. `project Shop`. */
  name: (index: number) => string;
  onMove: (from: number, to: number) => void;
  /** Items in a grid (the arrow keys move in two directions). */
  grid?: boolean;
  className?: string;
  /** One item: its index, key and drag handle. */
  children: (index: number, key: string, handle: ReactNode) => ReactNode;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const at = (id: UniqueIdentifier) => keys.indexOf(String(id));
  // Whether the lifted item has left its place: until then, being over it is not news (the
  // pick-up is what is heard).
  const left = useRef(false);
  const of = `of ${keys.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      left.current = false;
      return `Picked up ${name(at(active.id))}, at position ${at(active.id) + 1} ${of}.`;
    },
    onDragOver: ({ active, over }) => {
      if (over?.id === active.id && !left.current) return undefined;
      left.current = true;
      return over ? `${capital(name(at(active.id)))} is over position ${at(over.id) + 1} ${of}.` : `${capital(name(at(active.id)))} is over no position.`;
    },
    onDragEnd: ({ active, over }) =>
      over
        ? `${capital(name(at(active.id)))} dropped at position ${at(over.id) + 1} ${of}.`
        : `${capital(name(at(active.id)))} put back at position ${at(active.id) + 1} ${of}.`,
    onDragCancel: ({ active }) => `Reordering cancelled: ${name(at(active.id))} is back at position ${at(active.id) + 1} ${of}.`,
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
      onDragEnd={({ active, over }) => {
        if (over && active.id !== over.id) onMove(at(active.id), at(over.id));
      }}
    >
      <SortableContext items={keys} strategy={grid ? rectSortingStrategy : verticalListSortingStrategy}>
        <ol className={className}>
          {keys.map((key, i) => (
            <SortableItem key={key} id={key} name={name(i)}>
              {(handle) => children(i, key, handle)}
            </SortableItem>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function SortableItem({ id, name, children }: { id: string; name: string; children: (handle: ReactNode) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={`Reorder ${name}`}
      className="inline-flex size-11 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-gray-400 hover:bg-gray-800 hover:text-white active:cursor-grabbing"
    >
      <GripVertical aria-hidden="true" className="size-5" />
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={isDragging ? 'relative z-10 rounded-lg shadow-lg shadow-black/50' : undefined}
    >
      {children(handle)}
    </li>
  );
}
