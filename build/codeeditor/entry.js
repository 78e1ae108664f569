// The page's code editor for script policies (web/codeeditor.js, built
// from this file by build.sh): prism-code-editor, a textarea under
// highlighted lines, with line numbers, Python highlighting (Starlark is
// a small Python), indentation, bracket matching and its own undo.
//
// The Vugu page owns an empty element per script and calls
// schedlabCode.sync(el, ...) at every render (vg-js-create); the editor
// lives inside it. What is typed reaches the page as the textarea's
// ordinary input events, which bubble to that element.
import { createEditor } from "prism-code-editor";
import { editorCommands, defaultKeymap, editHistory } from "prism-code-editor/commands";
import { matchBrackets } from "prism-code-editor/match-brackets";
import { indentGuides } from "prism-code-editor/guides";
import "prism-code-editor/prism/languages/python";
import "prism-code-editor/languages/python";

// typed holds, per editor, the texts it sent to the page and the page may
// not have shown yet: a render that brings one of them back is the echo
// of typing, not a new script, and must not undo the keys typed since.
const typedLimit = 64;

function create(el, id) {
  const ed = createEditor(el, { language: "python", lineNumbers: true, tabSize: 4, insertSpaces: true, value: "" },
    editorCommands(defaultKeymap), editHistory(), matchBrackets(), indentGuides());
  ed.schedlabID = id;
  ed.typed = [];
  ed.textarea.id = id;
  ed.textarea.setAttribute("autocapitalize", "off");
  ed.textarea.setAttribute("spellcheck", "false");
  ed.textarea.addEventListener("input", () => {
    ed.typed.push(ed.textarea.value);
    if (ed.typed.length > typedLimit) ed.typed.shift();
  });
  return ed;
}

// mark shows the line of the current mistake (0 for none).
function mark(ed, line) {
  if (ed.errorLine === line) return;
  // lines[0] holds the overlays; line n is lines[n]
  const old = ed.errorLine > 0 && ed.lines[ed.errorLine];
  if (old) old.classList.remove("pce-error-line");
  ed.errorLine = line;
  const now = line > 0 && ed.lines[line];
  if (now) now.classList.add("pce-error-line");
}

window.schedlabCode = {
  // sync makes el hold an editor for the field id showing text, labelled
  // by label (the id of an element naming it) and described by
  // describedBy (the id of its error text); errorLine marks the line of
  // the mistake shown there, 0 for none.
  sync(el, id, text, labelledBy, describedBy, errorLine) {
    let ed = el.schedlabEditor;
    if (ed && ed.schedlabID !== id) {
      ed.remove(); // the page put another script's field here
      ed = null;
    }
    if (!ed) {
      ed = el.schedlabEditor = create(el, id);
      ed.setOptions({ value: text });
    } else if (ed.value !== text) {
      const i = ed.typed.lastIndexOf(text);
      if (i >= 0) {
        ed.typed.splice(0, i + 1); // an echo: older texts cannot come back
      } else {
        ed.typed = [];
        ed.setOptions({ value: text }); // an example, an undo, a loaded scenario
      }
    }
    ed.textarea.setAttribute("aria-labelledby", labelledBy);
    ed.textarea.setAttribute("aria-describedby", describedBy);
    ed.textarea.setAttribute("aria-invalid", errorLine > 0 ? "true" : "false");
    mark(ed, errorLine);
    // a re-render of the lines drops the mark: put it back
    if (!ed.schedlabMarking) {
      ed.schedlabMarking = true;
      ed.on("update", () => {
        const line = ed.errorLine;
        ed.errorLine = 0;
        mark(ed, line);
      });
    }
  },
};
