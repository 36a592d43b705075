import { Inbox as InboxIcon, ShieldAlert, Trash2 } from 'lucide-react';
import type { Folder } from '../../api/inbox';

const FOLDERS: { id: Folder; label: string; Icon: typeof InboxIcon }[] = [
  { id: 'inbox', label: 'Inbox', Icon: InboxIcon },
  { id: 'spam', label: 'Spam', Icon: ShieldAlert },
  { id: 'trash', label: 'Trash', Icon: Trash2 },
];

/** The three folders; the inbox shows its unread count. */
export function FolderNav({
  folder,
  unread,
  onSelect,
}: {
  folder: Folder;
  unread: number | null;
  onSelect: (folder: Folder) => void;
}) {
  return (
    <nav aria-label="Folders">
      <ul className="flex gap-2 md:flex-col">
        {FOLDERS.map(({ id, label, Icon }) => {
          const active = id === folder;
          return (
            <li key={id}>
              <button
                type="button"
                onClick={() => onSelect(id)}
                aria-current={active ? 'page' : undefined}
                className={`flex min-h-11 w-full items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors duration-150 ease-out ${
                  active ? 'bg-blue-600 text-white' : 'text-gray-300 hover:bg-gray-800 hover:text-white'
                }`}
              >
                <Icon aria-hidden="true" className="size-5" />
                <span>{label}</span>
                {id === 'inbox' && unread !== null && unread > 0 && (
                  <span
                    className={`ml-auto rounded-full px-2 text-xs font-semibold ${
                      active ? 'bg-white/20 text-white' : 'bg-blue-600/20 text-blue-200'
                    }`}
                  >
                    {unread}
                    <span className="sr-only"> unread</span>
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
