// Review sheet (issue 21): label every item of this pass from the keyboard, autosave in the
// browser's local storage, export the verdict file `atlas review import` reads. No network:
// the page's Content-Security-Policy forbids every connection, and item text is only ever set
// with textContent (model outputs are data, never markup).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("sheet-data").textContent);
  const items = data.items;
  const byId = new Map(items.map((item) => [item.id, item]));
  let labels = {}; // blind id -> field -> label
  let notes = {}; // blind id -> text of `why`
  let current = 0; // index of the current item
  let currentField = 0; // index of the current field in that item
  let storageOk = true;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "text") node.textContent = value;
      else if (name === "class") node.className = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  function fieldSpec(item, name) {
    return data.rubrics[item.rubric].fields[name];
  }

  function missing(item) {
    const got = labels[item.id] || {};
    return item.fields.filter((name) => got[name] === undefined);
  }

  function allowed(item, name, label) {
    return fieldSpec(item, name).labels.some(([value]) => value === label);
  }

  // --- storage -------------------------------------------------------------------------
  function save() {
    try {
      const saved = { labels: labels, notes: notes, saved: new Date().toISOString() };
      window.localStorage.setItem(data.storage, JSON.stringify(saved));
    } catch (err) {
      storageOk = false;
    }
  }

  function restore() {
    let saved = null;
    try {
      saved = JSON.parse(window.localStorage.getItem(data.storage) || "null");
    } catch (err) {
      storageOk = false;
    }
    if (!saved || typeof saved !== "object") return 0;
    return adopt(saved.labels || {}, saved.notes || {}).taken;
  }

  // Take labels for this sheet's items only, and only labels the rubric allows.
  function adopt(newLabels, newNotes) {
    let taken = 0;
    const refused = [];
    for (const [id, fields] of Object.entries(newLabels)) {
      const item = byId.get(id);
      if (!item || typeof fields !== "object" || fields === null) {
        refused.push(id);
        continue;
      }
      for (const [name, label] of Object.entries(fields)) {
        if (label === null || label === undefined || label === "") continue;
        const text = String(label);
        if (item.fields.includes(name) && allowed(item, name, text)) {
          (labels[id] = labels[id] || {})[name] = text;
          taken += 1;
        } else {
          refused.push(`${id} ${name}=${text}`);
        }
      }
    }
    for (const [id, text] of Object.entries(newNotes)) {
      if (byId.has(id) && typeof text === "string" && text) notes[id] = text;
    }
    return { taken: taken, refused: refused };
  }

  // --- the verdict file ------------------------------------------------------------------
  function verdictDocument() {
    const doc = Object.assign({}, data.header);
    doc.verdicts = items.map((item) => {
      const entry = { id: item.id };
      const got = labels[item.id] || {};
      for (const name of item.fields) entry[name] = got[name] === undefined ? null : got[name];
      entry.why = notes[item.id] || "";
      return entry;
    });
    return JSON.stringify(doc, null, 2) + "\n";
  }

  function download(text) {
    const blob = new Blob([text], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: data.file });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  function exportVerdicts(draft) {
    const open = items.filter((item) => missing(item).length > 0);
    if (open.length && !draft) {
      tell(`${open.length} item(s) still miss a label; finish them or export a draft`, true);
      return;
    }
    download(verdictDocument());
    if (open.length) {
      tell(`draft exported as ${data.file}: ${open.length} item(s) incomplete, ` +
        "`atlas review import` refuses it until every item is labelled");
    } else {
      tell(`exported ${data.file}: save it as ${data.target} (or run ` +
        `\`atlas review accept ${data.file} --study ${data.header.study}\`) and commit it`);
    }
  }

  function loadFile(file) {
    const reader = new FileReader();
    reader.onload = () => {
      let doc;
      try {
        doc = JSON.parse(String(reader.result));
      } catch (err) {
        tell(`${file.name}: not JSON (${err.message})`, true);
        return;
      }
      const h = data.header;
      if (!doc || doc.study !== h.study || doc.reviewer !== h.reviewer || doc.pass !== h.pass) {
        tell(`${file.name}: not a verdict file of ${h.study}, ${h.reviewer}, pass ${h.pass}`, true);
        return;
      }
      const newLabels = {};
      const newNotes = {};
      for (const entry of Array.isArray(doc.verdicts) ? doc.verdicts : []) {
        if (!entry || typeof entry.id !== "string") continue;
        const fields = {};
        for (const [name, value] of Object.entries(entry)) {
          if (name === "id" || name === "why") continue;
          if (value !== null && value !== undefined) fields[name] = value;
        }
        newLabels[entry.id] = fields;
        if (typeof entry.why === "string") newNotes[entry.id] = entry.why;
      }
      const result = adopt(newLabels, newNotes);
      save();
      refresh();
      const refused = result.refused.length ? `; refused: ${result.refused.join(", ")}` : "";
      tell(`${file.name}: ${result.taken} label(s) loaded${refused}`, result.refused.length > 0);
    };
    reader.readAsText(file);
  }

  // --- rendering -------------------------------------------------------------------------
  function tell(text, error) {
    const box = document.getElementById("message");
    box.textContent = text;
    box.className = error ? "error" : "";
  }

  function renderItem(item, index) {
    const rubric = data.rubrics[item.rubric];
    const content = el("section", { class: "content" });
    for (const [label, text] of item.sections) {
      content.append(el("h3", { text: label }), el("pre", { text: text }));
    }
    const aside = el("aside", { class: "rubric" }, el("h3", { text: rubric.title }));
    if (rubric.guidance) aside.append(el("p", { class: "guidance", text: rubric.guidance }));
    item.fields.forEach((name, fieldIndex) => {
      const spec = rubric.fields[name];
      const legend = el("legend", {}, el("code", { text: name }), " " + spec.question);
      const set = el("fieldset", { "data-field": name }, legend);
      for (const [label, meaning] of spec.labels) {
        const input = el("input", { type: "radio", name: `${item.id}:${name}`, value: label });
        input.addEventListener("change", () => {
          current = index;
          currentField = fieldIndex;
          choose(label);
        });
        const choice = el("label", { class: "choice", "data-label": label }, input,
          el("kbd", { text: spec.keys[label] }), el("span", { class: "label", text: label }),
          el("span", { class: "meaning", text: meaning }));
        set.append(choice);
      }
      set.addEventListener("click", () => {
        current = index;
        currentField = fieldIndex;
        highlight(false);
      });
      aside.append(set);
    });
    const why = el("textarea", { class: "why", id: `why-${item.id}`, rows: "2",
      placeholder: "one short clause on what decided it (optional)" });
    why.value = notes[item.id] || "";
    why.addEventListener("input", () => {
      if (why.value) notes[item.id] = why.value;
      else delete notes[item.id];
      save();
    });
    aside.append(el("label", { class: "why-label", for: why.id, text: "why" }), why);
    const head = el("header", {},
      el("span", { class: "number", text: `${index + 1}/${items.length}` }),
      el("span", { class: "blind", text: item.id }),
      el("span", { class: "status" }));
    const article = el("article", { class: "item", id: `item-${item.id}`, "data-id": item.id },
      head, el("div", { class: "body" }, content, aside));
    article.addEventListener("click", (event) => {
      if (event.target.closest("fieldset")) return;
      current = index;
      highlight(false);
    });
    return article;
  }

  function refreshItem(item) {
    const article = document.getElementById(`item-${item.id}`);
    const got = labels[item.id] || {};
    for (const set of article.querySelectorAll("fieldset")) {
      const name = set.dataset.field;
      set.classList.toggle("missing", got[name] === undefined);
      for (const choice of set.querySelectorAll(".choice")) {
        const chosen = choice.dataset.label === got[name];
        choice.classList.toggle("chosen", chosen);
        choice.querySelector("input").checked = chosen;
      }
    }
    const why = document.getElementById(`why-${item.id}`);
    if (document.activeElement !== why) why.value = notes[item.id] || "";
    const open = missing(item);
    const status = article.querySelector(".status");
    status.textContent = open.length ? `missing: ${open.join(", ")}` : "complete";
    status.classList.toggle("done", open.length === 0);
  }

  function refresh() {
    items.forEach(refreshItem);
    const done = items.filter((item) => missing(item).length === 0).length;
    const progress = document.getElementById("progress");
    progress.textContent = `${done} / ${items.length} items complete`;
    progress.classList.toggle("complete", done === items.length);
    const button = document.getElementById("export");
    button.disabled = done !== items.length;
    button.title = button.disabled ? `${items.length - done} item(s) still miss a label` : "";
  }

  function highlight(scroll) {
    document.querySelectorAll(".item.current").forEach((n) => n.classList.remove("current"));
    document.querySelectorAll(".current-field").forEach((n) => n.classList.remove("current-field"));
    const item = items[current];
    const article = document.getElementById(`item-${item.id}`);
    article.classList.add("current");
    const set = article.querySelectorAll("fieldset")[currentField];
    if (set) set.classList.add("current-field");
    if (scroll) article.scrollIntoView({ block: "nearest" });
  }

  // --- labelling -------------------------------------------------------------------------
  function choose(label) {
    const item = items[current];
    const name = item.fields[currentField];
    (labels[item.id] = labels[item.id] || {})[name] = label;
    save();
    refreshItem(item);
    refresh();
    tell(`${item.id} ${name} = ${label}` + (storageOk ? "" : " (autosave unavailable here)"),
      !storageOk);
    advance();
  }

  // After a label: the item's next open field, else the next incomplete item's first open one.
  function advance() {
    const item = items[current];
    const open = missing(item);
    if (open.length) {
      currentField = item.fields.indexOf(open[0]);
    } else {
      for (let step = 1; step <= items.length; step += 1) {
        const next = (current + step) % items.length;
        const left = missing(items[next]);
        if (left.length) {
          current = next;
          currentField = items[next].fields.indexOf(left[0]);
          break;
        }
      }
    }
    highlight(true);
  }

  function move(itemStep, fieldStep) {
    if (itemStep) {
      current = Math.min(items.length - 1, Math.max(0, current + itemStep));
      const open = missing(items[current]);
      currentField = open.length ? items[current].fields.indexOf(open[0]) : 0;
    }
    if (fieldStep) {
      const count = items[current].fields.length;
      currentField = Math.min(count - 1, Math.max(0, currentField + fieldStep));
    }
    highlight(true);
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT") &&
        target.type !== "radio") {
      if (event.key === "Escape") {
        target.blur();
        highlight(true);
      }
      return;
    }
    const item = items[current];
    const name = item.fields[currentField];
    const spec = fieldSpec(item, name);
    const moves = { ArrowDown: [1, 0], ArrowUp: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1] };
    if (moves[event.key]) {
      event.preventDefault();
      move(...moves[event.key]);
      return;
    }
    if (event.key === "Enter") {
      event.preventDefault();
      document.getElementById(`why-${item.id}`).focus();
      return;
    }
    if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      if (labels[item.id]) delete labels[item.id][name];
      save();
      refresh();
      tell(`${item.id} ${name} cleared`);
      return;
    }
    if (event.key === "?") {
      toggleHelp();
      return;
    }
    if (event.key.length !== 1 || event.key === " ") return;
    event.preventDefault();
    const pressed = event.key.toLowerCase();
    const hit = spec.labels.find(([label]) => spec.keys[label] === pressed);
    if (hit) {
      choose(hit[0]);
      return;
    }
    const keys = spec.labels.map(([label]) =>
      spec.keys[label] === label ? label : `${spec.keys[label]} (${label})`).join(", ");
    tell(`"${event.key}" is not a label of ${name} on ${item.id}: use ${keys}`, true);
  }

  function toggleHelp() {
    const help = document.getElementById("help");
    help.hidden = !help.hidden;
    document.getElementById("help-toggle").setAttribute("aria-expanded", String(!help.hidden));
  }

  // --- start -----------------------------------------------------------------------------
  function start() {
    const h = data.header;
    const heading = el("h1", { text: `Study ${h.study} · pass ${h.pass} · reviewer ${h.reviewer}` });
    if (h.demo) heading.append(el("span", { class: "demo", text: "DEMO STUDY" }));
    document.getElementById("heading").append(heading);
    const restored = restore();
    const main = document.getElementById("items");
    items.forEach((item, index) => main.append(renderItem(item, index)));
    document.getElementById("instructions").textContent =
      "Items are identified by their blind id, never by position; your order differs from the " +
      "other reviewers' on purpose. Do not discuss items until every verdict file is done. " +
      `Export writes ${data.file}: save it as ${data.target} and commit it.`;
    if (restored) {
      const first = items.findIndex((item) => missing(item).length > 0);
      current = first < 0 ? 0 : first;
      currentField = first < 0 ? 0 : items[current].fields.indexOf(missing(items[current])[0]);
    }
    refresh();
    highlight(false);
    if (!storageOk) tell("autosave is unavailable in this browser: export a draft to keep work", true);
    else if (restored) tell(`restored ${restored} label(s) autosaved in this browser`);
    else tell("label with the keys shown beside each choice; ? lists every key");
    document.addEventListener("keydown", onKey);
    document.getElementById("export").addEventListener("click", () => exportVerdicts(false));
    document.getElementById("export-draft").addEventListener("click", () => exportVerdicts(true));
    document.getElementById("help-toggle").addEventListener("click", toggleHelp);
    document.getElementById("load").addEventListener("change", (event) => {
      if (event.target.files.length) loadFile(event.target.files[0]);
      event.target.value = "";
    });
  }

  start();
})();
