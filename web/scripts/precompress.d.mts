import type { Plugin } from 'vite';

/** The Vite plugin that compresses the build's output once it is written. */
export function precompress(): Plugin;
