// Progressive enhancement of the administration panel; every form works without it.
document.addEventListener('click', async (event) => {
  const button = event.target.closest('[data-copy]');
  if (!button) return;
  const input = document.getElementById(button.dataset.copy);
  const status = button.parentElement.querySelector('.copied');
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    if (status) status.textContent = 'Скопировано';
  } catch {
    // Clipboard API unavailable (http, old browser): the key is selected, Ctrl+C copies it.
    if (status) status.textContent = 'Выделено — нажмите Ctrl+C';
  }
});

// Moves focus to the first invalid field, or to the error summary, so keyboard and screen-reader users land on it.
document.addEventListener('DOMContentLoaded', () => {
  const target = document.querySelector('[aria-invalid="true"]') || document.getElementById('form-error');
  if (target) {
    if (!target.hasAttribute('tabindex') && !/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) target.setAttribute('tabindex', '-1');
    target.focus();
  }
});

// Live regions: an element with data-live="URL" gets its content replaced by the HTML fragment at URL every
// data-live-seconds (default 10) while the tab is visible. Without JS the page has a reload link.
document.addEventListener('DOMContentLoaded', () => {
  for (const el of document.querySelectorAll('[data-live]')) {
    const seconds = Math.max(2, Number(el.dataset.liveSeconds) || 10);
    setInterval(async () => {
      if (document.hidden) return;
      try {
        const res = await fetch(el.dataset.live, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
        // a lost session answers with a redirect to the sign-in page: leave the table as it is
        if (res.ok && !res.redirected) el.innerHTML = await res.text();
      } catch {
        // offline for a moment: the next tick tries again
      }
    }, seconds * 1000);
  }
});
