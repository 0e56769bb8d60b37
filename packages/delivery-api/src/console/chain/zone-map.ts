/**
 * The zones map of the support console as plain inline SVG (docs/console-webhooks-chain.md, Chain): no tile server and no map library.
 * A local equirectangular projection around the middle latitude of what is drawn: x = lon·cos(lat₀), y = −lat,
 * scaled to fit the box. Good to a few metres across a city, which is all a support desk needs to see which
 * zone a point falls in. The inverse (`frame`) lets the page's script turn a click into latitude and longitude.
 */

/** A polygon to draw: vertices `[latitude, longitude]` (ZoneRecord.polygon). */
export interface MapZone {
  zoneId: string;
  pointId: string;
  name: string;
  active: boolean;
  polygon: [number, number][];
}

/** A marker to draw (a point of the chain, or the location that was resolved). */
export interface MapMarker {
  id: string;
  label: string;
  lat: number;
  lon: number;
}

/**
 * How SVG coordinates map back to the earth: lon = lon0 + x / kx, lat = lat0 − y / ky (see `toLatLon`; the page
 * script does the same). Units: SVG user units (pixels of the viewBox) and degrees.
 */
export interface MapFrame {
  width: number;
  height: number;
  /** Longitude and latitude at SVG (0, 0) — the top-left corner. */
  lon0: number;
  lat0: number;
  /** SVG units per degree of longitude and of latitude. */
  kx: number;
  ky: number;
}

/** A drawn map: zone paths, markers in SVG coordinates, and the frame to invert clicks. */
export interface ZoneMap {
  frame: MapFrame;
  zones: (MapZone & { path: string; labelX: number; labelY: number })[];
  markers: (MapMarker & { x: number; y: number })[];
}

/** Projects zones and markers into a `width`×`height` box with `pad` units of margin. Empty input → a 1° box around Moscow. */
export function drawZoneMap(zones: MapZone[], markers: MapMarker[], box = { width: 720, height: 480, pad: 24 }): ZoneMap {
  const lats = [...zones.flatMap((z) => z.polygon.map((v) => v[0])), ...markers.map((m) => m.lat)];
  const lons = [...zones.flatMap((z) => z.polygon.map((v) => v[1])), ...markers.map((m) => m.lon)];
  let [minLat, maxLat, minLon, maxLon] = lats.length
    ? [Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons)]
    : [55.25, 56.25, 37.1, 38.1];
  // A single point (or a degenerate line) still needs an area to show.
  if (maxLat - minLat < 1e-4) [minLat, maxLat] = [minLat - 0.005, maxLat + 0.005];
  if (maxLon - minLon < 1e-4) [minLon, maxLon] = [minLon - 0.005, maxLon + 0.005];
  const cosLat = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const innerW = box.width - 2 * box.pad;
  const innerH = box.height - 2 * box.pad;
  const s = Math.min(innerW / ((maxLon - minLon) * cosLat), innerH / (maxLat - minLat)); // units per degree of latitude
  const kx = s * cosLat;
  const ky = s;
  // centre the drawing in the box
  const offX = box.pad + (innerW - (maxLon - minLon) * kx) / 2;
  const offY = box.pad + (innerH - (maxLat - minLat) * ky) / 2;
  const frame: MapFrame = { width: box.width, height: box.height, lon0: minLon - offX / kx, lat0: maxLat + offY / ky, kx, ky };
  const x = (lon: number) => round((lon - frame.lon0) * kx);
  const y = (lat: number) => round((frame.lat0 - lat) * ky);
  return {
    frame,
    zones: zones.map((z) => {
      const pts = z.polygon.map(([la, lo]) => [x(lo), y(la)] as const);
      const cx = pts.reduce((a, p) => a + p[0], 0) / Math.max(1, pts.length);
      const cy = pts.reduce((a, p) => a + p[1], 0) / Math.max(1, pts.length);
      return { ...z, path: `M${pts.map((p) => `${p[0]},${p[1]}`).join('L')}Z`, labelX: round(cx), labelY: round(cy) };
    }),
    markers: markers.map((m) => ({ ...m, x: x(m.lon), y: y(m.lat) })),
  };
}

/** The inverse of the projection: SVG coordinates → `{lat, lon}` in degrees (what the page script computes). */
export function toLatLon(frame: MapFrame, px: number, py: number): { lat: number; lon: number } {
  return { lat: frame.lat0 - py / frame.ky, lon: frame.lon0 + px / frame.kx };
}

const round = (v: number) => Math.round(v * 10) / 10;
