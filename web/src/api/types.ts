/** Entity types, derived from the generated OpenAPI paths so they follow the server. */
import type { paths } from './generated/schema';

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Ok<Op> = Op extends { responses: infer R }
  ? R extends { 200: infer X }
    ? Json<X>
    : R extends { 201: infer X }
      ? Json<X>
      : never
  : never;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer T } } }
  ? T
  : never;

export type CurrentUser = Ok<paths['/api/users/me']['get']>;
export type MeUpdate = Body<paths['/api/users/me']['put']>;
export type AccessRule = Ok<paths['/api/accessRules']['get']>[number];

export type Site = Ok<paths['/api/sites/{site_id}']['get']>;
export type SiteWrite = Body<paths['/api/sites']['post']>;

export type SiteSettings = Ok<paths['/api/sites/{site_id}/settings']['get']>;

export type User = Ok<paths['/api/users/{user_id}']['get']>;
export type UserCreate = Body<paths['/api/users']['post']>;
export type UserUpdate = Body<paths['/api/users']['put']>;

export type Organization = Ok<paths['/api/organizations/{org_id}']['get']>;
export type OrganizationWrite = Body<paths['/api/organizations']['post']>;

export type ApiKey = Ok<paths['/api/apikeys/{key_id}']['get']>;
export type ApiKeyCreate = Body<paths['/api/apikeys']['post']>;

export type SsoKind = 'okta' | 'entra';

// Tracking core: events and the dashboard.
export type TrackEvent = Ok<paths['/api/events']['get']>[number];
export type ZoneDuration = Ok<paths['/api/zonedurations']['get']>[number];
export type EndpointStatus = Ok<paths['/api/endpoints/status']['get']>[number];
export type Thing = Ok<paths['/api/things/{thing_id}']['get']>;
export type ThingCreate = Body<paths['/api/things']['post']>;
export type ThingUpdate = Body<paths['/api/things/{thing_id}']['put']>;

// Tracking core: endpoints, zones and location tags.
export type Endpoint = Ok<paths['/api/endpoints/{endpoint_id}']['get']>;
export type EndpointWrite = Body<paths['/api/endpoints']['post']>;
export type Zone = Ok<paths['/api/zones/{zone_id}']['get']>;
export type ZoneWrite = Body<paths['/api/zones']['post']>;
export type Gate = Zone['gates'][number];
export type LocationTag = Ok<paths['/api/locationtags/{tag_id}']['get']>;
export type LocationTagWrite = Body<paths['/api/locationtags']['post']>;
export type FloorMap = Ok<paths['/api/maps/{map_id}']['get']>;
export type FloorMapWrite = Body<paths['/api/maps']['post']>;
export type MapThing = Ok<paths['/api/maps/{map_id}/things']['get']>[number];
export type SsoAvailability = Ok<paths['/api/auth/{kind}/available']['get']>;
export type SsoSettings = Ok<paths['/api/ssosettings']['get']>;
export type SsoSettingsWrite = Body<paths['/api/ssosettings']['put']>;

export type ImageCategory = Ok<paths['/api/image-categories/{category_id}']['get']>;
export type ImageCategoryWrite = Body<paths['/api/image-categories']['post']>;

export type ImageMeta = Ok<paths['/api/images/{image_id}/meta']['get']>;
export type ImageWrite = Body<paths['/api/images/{image_id}/meta']['put']>;
export type ImageBulkEdit = Body<paths['/api/images/edit']['post']>;
/** The image search query, as GET images and the exports of a search take it. */
export type ImageSearchParams = NonNullable<
  NonNullable<paths['/api/images']['get']['parameters']['query']>
>;

export type ImportMapping = Body<paths['/api/import/mapping']['put']>;
export type HeaderAssetField = NonNullable<ImportMapping['headerAssetFields']>[number];
export type AssetField = HeaderAssetField['assetField'];
export type ParsedSheet = Ok<paths['/api/import/parse']['post']>;
export type ImportRows = Body<paths['/api/import/rows']['post']>;
export type BatchRowResult = Ok<paths['/api/import/rows']['post']>['results'][number];
// Reports and exceptions.
export type TrackException = Ok<paths['/api/exceptions']['get']>[number];
export type TrackExceptionDetail = Ok<paths['/api/exceptions/{exception_id}']['get']>;
export type ActivityThing = Ok<paths['/api/eventsbything']['get']>[number];
export type ReportConfig = Ok<paths['/api/reportconfigs/{config_id}']['get']>;
export type ReportConfigWrite = Body<paths['/api/reportconfigs']['post']>;
export type AdhocReport = Body<paths['/api/reports/adhoc']['post']>;
export type CategoryReport = Ok<paths['/api/reports/adhoc']['post']>;
