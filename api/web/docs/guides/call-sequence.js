// Renders GET /v1/flow: the call sequence as the service itself describes it.
const target = document.getElementById('steps');
const text = (tag, value) => Object.assign(document.createElement(tag), { textContent: value });

try {
  const flow = await (await fetch('/v1/flow')).json();
  const sections = flow.steps.map((step) => {
    const section = document.createElement('section');
    section.className = 'step';
    section.append(text('h2', `${step.step}. ${step.name}${step.optional ? ' (optional)' : ''}`), text('p', step.description));
    if (step.calls.length) {
      const list = document.createElement('ul');
      for (const call of step.calls) {
        const item = document.createElement('li');
        item.append(text('code', `${call.method} ${call.path}`), call.scope ? ` — scope ${call.scope}` : ' — no scope');
        list.append(item);
      }
      section.append(list);
    }
    return section;
  });
  target.replaceChildren(text('p', `API version ${flow.version}.`), ...sections);
} catch (err) {
  target.replaceChildren(text('p', `Could not read /v1/flow: ${err.message}`));
}
