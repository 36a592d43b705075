import { viaText, type MessageSummary } from '../../api/inbox';
import type { MessageDelivery } from '../../api/notifications';
import { DeliveryBadge } from './delivery-status';
import { isoDate, shortDate } from '../shared/format';

/** One folder's messages, newest first; unread ones stand out. */
export function MessageList({
  items,
  selectedId,
  onOpen,
  statuses,
}: {
  items: MessageSummary[];
  statuses: Map<number, MessageDelivery>;
  selectedId: number | null;
  onOpen: (id: number) => void;
}) {
  return (
    <ul className="divide-y divide-gray-800 overflow-hidden rounded-xl border border-gray-800 bg-gray-900/40">
      {items.map((m) => {
        const selected = m.id === selectedId;
        return (
          <li key={m.id}>
            <button
              type="button"
              onClick={() => onOpen(m.id)}
              aria-current={selected ? 'true' : undefined}
              className={`block w-full px-4 py-3 text-left transition-colors duration-150 ease-out ${
                selected ? 'bg-gray-800' : 'hover:bg-gray-800/60'
              }`}
            >
              <span className="flex items-baseline gap-2">
                {!m.isRead && <span aria-hidden="true" className="size-2 shrink-0 self-center rounded-full bg-blue-400" />}
                <span className={`truncate ${m.isRead ? 'text-gray-300' : 'font-semibold text-white'}`}>{m.name}</span>
                {!m.isRead && <span className="sr-only">(unread)</span>}
                <time dateTime={isoDate(m.createdAt)} className="ml-auto shrink-0 text-xs text-gray-400">
                  {shortDate(m.createdAt)}
                </time>
              </span>
              <span className={`mt-0.5 block truncate text-sm ${m.isRead ? 'text-gray-300' : 'font-medium text-gray-100'}`}>
                {m.subject || '(no subject)'}
              </span>
              {m.via && <span className="mt-0.5 block truncate text-xs font-medium text-blue-300">{viaText(m.via)}</span>}
              <span className="mt-0.5 block truncate text-sm text-gray-400">{m.preview}</span>
              <DeliveryBadge status={statuses.get(m.id)} isSpam={m.isSpam} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
