import { PixCollectionError } from '../../providers/provider-errors';
import { Unavailable } from '../../domain/errors';
import { answeringProviderFailure } from '../http/provider-failure';

/** The PSP down or refusing while reconciling: 503, as documented, not an unhandled 500; the caller (PSP, schedule, staff) tries again. */
export const withPsp = <T>(work: () => Promise<T>): Promise<T> => answeringProviderFailure(PixCollectionError, () => new Unavailable('pix_collection_unavailable'), work);
