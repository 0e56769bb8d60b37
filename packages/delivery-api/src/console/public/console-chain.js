// Progressive enhancement of the console's chain pages; every page works without it.

// A point's sync state: poll the fragment and swap it in, so the page can stay open (without JS the page reloads itself).
for (const box of document.querySelectorAll('[data-sync-url]')) {
  const every = Number(box.dataset.syncEvery || '10') * 1000;
  setInterval(async () => {
    try {
      const res = await fetch(box.dataset.syncUrl, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (res.ok && !res.redirected) box.innerHTML = await res.text();
    } catch {
      // offline for a moment: keep the last state, try again on the next tick
    }
  }, every);
}

// The zones map: a click fills latitude and longitude (the inverse of the page's projection) and tries resolve.
const map = document.getElementById('zone-map');
if (map) {
  map.addEventListener('click', (event) => {
    const ctm = map.getScreenCTM();
    if (!ctm) return;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    const f = map.dataset;
    const lat = Number(f.lat0) - p.y / Number(f.ky);
    const lon = Number(f.lon0) + p.x / Number(f.kx);
    document.getElementById('lat').value = lat.toFixed(6);
    document.getElementById('lon').value = lon.toFixed(6);
    document.getElementById('resolve-form').requestSubmit();
  });
}
