/**
 * The layout's rules (docs/architecture.md): the kernel (src/shared) names no slice, directly or
 * through another file, nothing depends on itself in a circle, and a slice reaches another only
 * through its public index.
 */
const SLICES = '(access|addon|approval-rule|audit|credential|mail|member|webhook)';
/** The composition: the files that gather the slices (compose.ts, compose-api.ts, event-registry.ts) or start what they make. */
const COMPOSITION = '(compose|compose-api|event-registry|app|notifications|serve|project|cli|main)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-names-no-slice',
      comment: 'src/shared is the kernel: it takes what slices register as parameters, and imports none of them (types included).',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: `^src/${SLICES}/` },
    },
    {
      name: 'kernel-reaches-no-slice',
      comment:
        'Nor through another file: nothing src/shared imports may lead, import after import, to a slice or to ' +
        'the composition that gathers them (a kernel file needing what the slices register takes it as a parameter).',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: [`^src/${SLICES}/`, `^src/${COMPOSITION}\\.ts$`], reachable: true },
    },
    {
      name: 'no-circular',
      comment: 'A circle of imports ties every module in it to every other.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'slice-through-its-index',
      comment: "A slice reaches another slice only through that slice's index.ts, its public face.",
      severity: 'error',
      from: { path: `^src/${SLICES}/` },
      to: { path: `^src/${SLICES}/(?!index\\.ts$)`, pathNot: ['^src/$1/'] },
    },
    {
      name: 'app-starts-what-compose-built',
      comment:
        'src/app.ts starts the HTTP app, the projections and the notifiers from the registry: it imports the kernel ' +
        '(src/shared), the composition (compose.ts, compose-api.ts, notifications.ts) and the process plumbing ' +
        '(settings, stores, observability, fatal exits), and nothing of a slice: what a slice needs is built in compose-api.ts.',
      severity: 'error',
      from: { path: '^src/app\\.ts$' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/shared/',
          '^src/(compose|compose-api|notifications|config|fatal)\\.ts$',
          '^src/stores/ports\\.ts$',
          '^src/observability/index\\.ts$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.d\\.ts$' },
  },
};
