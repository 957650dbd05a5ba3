import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * A modal confirmation (native <dialog>: focus is trapped and Escape cancels). Resolves with the
 * fields' values on confirm, or null when cancelled.
 */
export function confirmAction({ title, text, fields = [], confirmLabel }) {
  return new Promise((resolve) => {
    const inputs = fields.map((field) => {
      const id = `confirm-${field.name}`;
      const control = field.type === 'textarea'
        ? h('textarea', { id, name: field.name, required: field.required, rows: 3, maxlength: field.maxlength })
        : h('input', { id, name: field.name, type: field.type ?? 'text', required: field.required, value: field.value, checked: field.checked, inputmode: field.inputmode, pattern: field.pattern, maxlength: field.maxlength });
      return h('p', { class: 'field' }, h('label', { for: id }, field.label), control, field.hint ? h('small', {}, field.hint) : null);
    });
    const cancel = h('button', { type: 'button', class: 'secondary' }, t('Cancel'));
    const form = h('form', { method: 'dialog' },
      h('h2', {}, title), h('p', {}, text), ...inputs,
      h('p', { class: 'buttons' }, cancel, h('button', { type: 'submit', class: 'primary' }, confirmLabel)));
    const dialog = h('dialog', { 'aria-label': title }, form);
    let result = null;
    form.addEventListener('submit', () => { result = Object.fromEntries(new FormData(form)); });
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => { dialog.remove(); resolve(result); });
    document.body.append(dialog);
    dialog.showModal();
  });
}
