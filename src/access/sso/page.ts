const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page a refused single sign-on shows: the browser came here from the provider, not from the console's script. */
export function refusalPage(title: string, why: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(why)}</p><p><a href="/ui/">Back to the console</a></p></main></body></html>
`;
}
