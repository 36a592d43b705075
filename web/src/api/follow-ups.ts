/** Follow-ups and the weekly digest for the owner: the links due for one, a follow-up sent, dismissed or snoozed, and the digest's day and hour. Types mirror the server's JSON. */
import { api } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

export type DueFollowUp = Answer<components['schemas']['DueFollowUp']>;

export type FollowUpList = Answer<components['schemas']['FollowUpList']>;

export type FollowUpState = Answer<components['schemas']['FollowUpState']>;

export function listFollowUps(signal?: AbortSignal): Promise<FollowUpList> {
  return api<FollowUpList>('/api/follow-ups', { signal });
}

export function sendFollowUp(linkId: number, subject: string, body: string): Promise<FollowUpState> {
  return api<FollowUpState>(`/api/links/${linkId}/follow-up`, { method: 'POST', body: { subject, body } });
}

export function dismissFollowUp(linkId: number): Promise<FollowUpState> {
  return api<FollowUpState>(`/api/links/${linkId}/follow-up/dismiss`, { method: 'POST', body: {} });
}

export function snoozeFollowUp(linkId: number, days: number): Promise<FollowUpState> {
  return api<FollowUpState>(`/api/links/${linkId}/follow-up/snooze`, { method: 'POST', body: { days } });
}

export type DigestSettings = Answer<components['schemas']['DigestSettings']>;

export type DigestChange = components['schemas']['DigestChange'];

export function readDigest(signal?: AbortSignal): Promise<DigestSettings> {
  return api<DigestSettings>('/api/digest', { signal });
}

export function changeDigest(change: DigestChange): Promise<DigestSettings> {
  return api<DigestSettings>('/api/digest', { method: 'PUT', body: change });
}
