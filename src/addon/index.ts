// The add-on slice's public face: what the rest of the service may use of it. Its registration is ./slice.ts.
export { addonsProjection, type AddonDocument } from './projection';
export { checkManifest, type AddonCatalogue, type AddonManifest } from './manifest';
