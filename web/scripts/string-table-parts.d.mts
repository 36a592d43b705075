import type { Plugin } from 'vite';
export function stringTableParts(): Plugin;
