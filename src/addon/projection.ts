import { addonDecider, AddonEvent, addonEventSchemas, AddonRelease, AddonState } from './decider';
import { PageRoles } from './page-roles';
import { typesOf } from '../shared/domain/events';
import { Projection } from '../shared/projections/projection';

/**
 * An installed add-on: the release installed (so the open API lists its version and texts in one
 * read), its whitelist, menu entry and enabled flag. Uninstalling deletes the document.
 */
export interface AddonDocument extends AddonRelease {
  enabled: boolean;
  show_menu: boolean;
  page_roles: PageRoles;
}

type Installed = Extract<AddonState, { status: 'installed' }>;

const stateOf = ({ enabled, show_menu, page_roles, ...release }: AddonDocument): Installed => ({
  status: 'installed',
  release,
  enabled,
  show_menu,
  page_roles,
});

const documentOf = ({ release, enabled, show_menu, page_roles }: Installed): AddonDocument => ({
  ...release,
  enabled,
  show_menu,
  page_roles,
});

/** The add-on's document for a state of its stream: null when not installed. */
export const addonDocumentOf = (state: AddonState): AddonDocument | null =>
  state.status === 'installed' ? documentOf(state) : null;

/** The installed add-ons, folded with the add-on decider's own evolve: the read model cannot tell a different story. */
export const addonsProjection: Projection<AddonDocument, AddonEvent> = {
  name: 'addons',
  version: 1,
  collection: { name: 'addons', indexes: [] },
  handles: typesOf(addonEventSchemas),

  documentIds: (event) => [event.data.key],

  evolve(doc, event) {
    return addonDocumentOf(addonDecider.evolve(doc ? stateOf(doc) : addonDecider.initialState, event));
  },
};
