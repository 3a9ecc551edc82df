import { AddonEvent, AddonRelease } from './decider';
import { PageRoles } from './page-roles';
import { RecordedEvent } from '../stores/ports';
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

export const addonsProjection: Projection<AddonDocument> = {
  name: 'addons',
  version: 1,
  collection: { name: 'addons', indexes: [] },

  documentIds: (event) => (event.stream.startsWith('addon-') ? [String(event.data.key)] : []),

  evolve(doc, recorded: RecordedEvent) {
    const event = recorded as unknown as AddonEvent;
    switch (event.type) {
      case 'AddonInstalled': {
        const { page_roles, show_menu, ...release } = event.data;
        return { ...release, enabled: true, show_menu, page_roles };
      }
      case 'AddonUninstalled':
        return null;
      default:
        if (!doc) return null;
    }
    switch (event.type) {
      case 'AddonReinstalled': {
        const { page_roles, show_menu, previous_version: _previous, ...release } = event.data;
        return { ...doc, ...release, show_menu, page_roles };
      }
      case 'AddonEnabled':
        return { ...doc, enabled: true };
      case 'AddonDisabled':
        return { ...doc, enabled: false };
      case 'MenuSet':
        return { ...doc, show_menu: event.data.show_menu };
      case 'PageRolesSet':
        return { ...doc, page_roles: event.data.page_roles };
    }
  },
};
