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
