/** Visitor insights for the owner: `/api/insights`. Types mirror the server's JSON. */
import { api } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

export type Range = 7 | 30 | 90;

export type DayFigures = Answer<components['schemas']['DayFigures']>;

export type KeyCount = Answer<components['schemas']['KeyCount']>;

export type InsightsFigures = Answer<components['schemas']['InsightsFigures']>;

export function insightsFigures(days: Range, signal?: AbortSignal): Promise<InsightsFigures> {
  return api(`/api/insights?days=${days}`, { signal });
}

/** The CSV download of the daily figures. */
export function insightsExportUrl(days: Range): string {
  return `/api/insights/export?days=${days}`;
}

/** A post's views, or its reads through an application link. */
export type PostCount = Answer<components['schemas']['PostCount']>;
