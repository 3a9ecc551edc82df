/** The service's answer as the console's fetch receives it: an envelope ({ code, message, data }) sent as JSON with this status. */
export const envelope = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
