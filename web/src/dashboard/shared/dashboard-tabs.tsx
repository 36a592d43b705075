import { useRef, type KeyboardEvent } from 'react';

export type DashboardView = 'inbox' | 'applications' | 'insights' | 'writing' | 'page';

const TABS: { id: DashboardView; label: string }[] = [
  { id: 'inbox', label: 'Inbox' },
  { id: 'applications', label: 'Applications' },
  { id: 'insights', label: 'Insights' },
  { id: 'writing', label: 'Writing' },
  { id: 'page', label: 'Page' },
];

export const PANEL_ID = 'dashboard-panel';

export function tabId(view: DashboardView): string {
  return `dashboard-tab-${view}`;
}

/** The dashboard's views as ARIA tabs: arrow keys, Home and End move between them. */
export function DashboardTabs({ view, onSelect }: { view: DashboardView; onSelect: (view: DashboardView) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  function onKeyDown(event: KeyboardEvent, index: number) {
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + TABS.length) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    onSelect(TABS[next]!.id);
    refs.current[next]?.focus();
  }
  return (
    // Five tabs fit a row from 360 px with the narrow padding; should a font make them wider, they wrap rather than overflow.
    <div role="tablist" aria-label="Dashboard" className="order-last flex w-full flex-wrap justify-between sm:justify-start sm:gap-1 md:order-none md:w-auto">
      {TABS.map((tab, index) => {
        const selected = tab.id === view;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            aria-selected={selected}
            aria-controls={PANEL_ID}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`min-h-11 rounded-lg px-1.5 text-sm font-medium sm:px-3 ${
              selected ? 'bg-blue-600 text-white' : 'text-gray-300 hover:bg-gray-800 hover:text-white'
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
