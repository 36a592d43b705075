/** Visitor insights for the owner: `/api/insights`. Types mirror the server's JSON. */
import { api } from './client';

export type Range = 7 | 30 | 90;

export interface DayFigures {
  /** `YYYY-MM-DD` in the owner's time zone. */
  day: string;
  pageViews: number;
  visitors: number;
  resumeDownloads: number;
  messages: number;
}

export interface KeyCount {
  key: string;
  count: number;
}

export interface InsightsFigures {
  enabled: boolean;
  timeZone: string;
  days: DayFigures[];
  totals: {
    pageViews: number;
    visitors: number;
    resumeDownloads: number;
    messages: number;
    messagesPer100Visitors: number | null;
  };
  referrers: KeyCount[];
  campaigns: KeyCount[];
  clicks: KeyCount[];
  devices: KeyCount[];
  browsers: KeyCount[];
}

export function insightsFigures(days: Range, signal?: AbortSignal): Promise<InsightsFigures> {
  return api(`/api/insights?days=${days}`, { signal });
}

/** The CSV download of the daily figures. */
export function insightsExportUrl(days: Range): string {
  return `/api/insights/export?days=${days}`;
}
