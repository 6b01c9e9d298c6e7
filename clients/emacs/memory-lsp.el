;;; memory-lsp.el --- Eglot support for AI-agent memory files  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The memory-lsp authors

;; Author: The memory-lsp authors
;; Maintainer: The memory-lsp authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (eglot "1.9"))
;; Keywords: languages, tools, convenience
;; URL: https://github.com/memory-lsp/memory-lsp
;; SPDX-License-Identifier: Apache-2.0

;; This file is not part of GNU Emacs.

;; Licensed under the Apache License, Version 2.0 (the "License");
;; you may not use this file except in compliance with the License.
;; You may obtain a copy of the License at
;;
;;     http://www.apache.org/licenses/LICENSE-2.0
;;
;; Unless required by applicable law or agreed to in writing, software
;; distributed under the License is distributed on an "AS IS" BASIS,
;; WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
;; See the License for the specific language governing permissions and
;; limitations under the License.

;;; Commentary:

;; memory-lsp checks the memory files AI agents keep in `.memory/'
;; (`.memory/decisions.md', `.memory/quirks.md', ...: one entry per line,
;; "- [optional-slug] sentence").  This package connects Emacs to the
;; `memory-lsp' language server through Eglot:
;;
;; - `memory-lsp-mode', a major mode (derived from `markdown-mode' when
;;   that is installed, else from `text-mode') for `.md' files directly
;;   inside a `.memory/' folder, and nothing else;
;; - an `eglot-server-programs' entry for that mode, ahead of any other
;;   Markdown server, so memory files get memory-lsp and other Markdown
;;   keeps its own server;
;; - the commands `memory-lsp-store', `memory-lsp-query',
;;   `memory-lsp-fix-all' and `memory-lsp-quickfix'.
;;
;; Minimal setup:
;;
;;   (require 'memory-lsp)
;;
;; and put the `memory-lsp' binary on `exec-path' (or set
;; `memory-lsp-program').  See README.md next to this file.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'compile)
(require 'project)
(require 'eglot)

(defvar eglot-lsp-context)              ; defined by eglot, bound by it

;;;; Options

(defgroup memory-lsp nil
  "Language server support for AI-agent memory files (`.memory/*.md')."
  :group 'tools
  :prefix "memory-lsp-"
  :link '(url-link "https://github.com/memory-lsp/memory-lsp"))

(defcustom memory-lsp-program "memory-lsp"
  "The memory-lsp executable: a command name or a file name.
A name is looked up on the variable `exec-path'.
Read each time a server starts; after changing it, restart the server
with \\[eglot-reconnect]."
  :type 'string)

(defcustom memory-lsp-server-args nil
  "Extra arguments for `memory-lsp serve --stdio'.
For example (\"--log-file\" \"memory-lsp.log\" \"--log-level\" \"debug\").
Without --log-file the server logs to its stderr, which Eglot keeps in
the buffer `*EGLOT (...) stderr*'."
  :type '(repeat string))

(defcustom memory-lsp-initialization-options nil
  "Settings sent to the server as `initializationOptions'.
A plist in Eglot's JSON convention, with the keys of memory-lsp's
settings, for example
  (:skipThreshold 0.8 :categoryLimit (:Quirk 60) :rules (:missing-slug t))
Use `:json-false' for JSON false.  nil sends an empty object.  Per-project
settings are better given in `eglot-workspace-configuration', section
`:memory' (see README.md)."
  :type '(plist :key-type symbol :value-type sexp))

(defcustom memory-lsp-auto-start t
  "Whether visiting a memory file starts (or joins) the server.
When non-nil, `memory-lsp-mode' calls `eglot-ensure'."
  :type 'boolean)

(defcustom memory-lsp-project-root t
  "Whether Eglot's project for a memory file is the folder holding `.memory'.
Without this, a memory file outside any version-controlled project
gets the `.memory' folder itself as its workspace, and commands that
default to the workspace would look for `.memory/.memory'.  With it,
each `.memory' folder gets one server, rooted at its parent."
  :type 'boolean)

(defcustom memory-lsp-confirm-edits nil
  "Whether to confirm the edits the server makes for our commands.
`memory-lsp-store' into a file open in Emacs edits the buffer through
`workspace/applyEdit'; when this is nil, Eglot's confirmation option
\(`eglot-confirm-server-edits', formerly
`eglot-confirm-server-initiated-edits') is nil during the command, so
no question is asked.  When non-nil, Eglot's option applies."
  :type 'boolean)

(defcustom memory-lsp-save-after-store t
  "Whether to save memory buffers changed by `memory-lsp-store'.
The server edits an open memory file in its buffer and leaves the file
on disk to the editor; agents read the disk.  When non-nil, a buffer
that had no unsaved changes before the store is saved after it."
  :type 'boolean)

(defcustom memory-lsp-fix-all-on-save nil
  "Whether to apply `source.fixAll.memory' before saving a memory file."
  :type 'boolean)

(defcustom memory-lsp-query-limit nil
  "How many results `memory-lsp-query' asks for (1-20); nil: the server's 10."
  :type '(choice (const :tag "Server default" nil) (integer :tag "Limit")))

(defconst memory-lsp-categories
  '("Instruction" "Quirk" "Preference" "Decision" "Security")
  "The five memory categories, as `memory.storeMemory' names them.")

(defconst memory-lsp-file-regexp "/\\.memory/[^/]+\\.md\\'"
  "Regexp matching the file names of memory files.")

(defconst memory-lsp-agent-files
  '(;; agent-files:start
    "CLAUDE.md" ".claude/CLAUDE.md" "CLAUDE.local.md" ".claude/rules/*.md"
    "AGENTS.override.md" "AGENTS.md"
    ".github/copilot-instructions.md" ".github/instructions/*.instructions.md"
    ".cursor/rules/*.mdc" ".cursorrules"
    ".windsurf/rules/*.md" ".devin/rules/*.md" ".windsurfrules"
    "GEMINI.md"
    ".kiro/steering/*.md"
    ;; agent-files:end
    )
  "The agents' instruction files the server judges when attached to them.
The reference rules on their bullets and their load budgets, by their
path from a workspace root; `*' stands for any name.  The server's list
\(core/budget), which clients/agentfiles_test.go keeps this equal to.")

(defun memory-lsp--glob-regexp (glob)
  "A regexp matching the end of a file name that GLOB names."
  (concat "/" (replace-regexp-in-string "\\\\\\*" "[^/]*" (regexp-quote glob) t t)
          "\\'"))

(defconst memory-lsp-agent-file-regexp
  (mapconcat #'memory-lsp--glob-regexp memory-lsp-agent-files "\\|")
  "Regexp matching the file names of the agents' instruction files.")

;;;; Major mode

(defalias 'memory-lsp--parent-mode
  (if (or (fboundp 'markdown-mode) (require 'markdown-mode nil t))
      'markdown-mode
    'text-mode)
  "The parent of `memory-lsp-mode': `markdown-mode' if installed.")

;;;###autoload
(define-derived-mode memory-lsp-mode memory-lsp--parent-mode "Memory"
  "Major mode for AI-agent memory files (`.memory/<category>.md').
Derived from `markdown-mode' when it is installed, else `text-mode'.
With `memory-lsp-auto-start', starts the memory-lsp server via Eglot.

\\{memory-lsp-mode-map}"
  (add-hook 'before-save-hook #'memory-lsp--fix-all-on-save nil t)
  (when (and memory-lsp-auto-start buffer-file-name)
    (eglot-ensure)))

;;;###autoload
(define-derived-mode memory-lsp-agent-mode memory-lsp--parent-mode "Agent"
  "Major mode for an agent's instruction file (AGENTS.md, CLAUDE.md, ...).
The memory-lsp server judges its bullets as `memory-lsp check' does
when given the file (paths, commands and versions they cite) and its
load budget, as you type; it is not a memory file.  Derived from
`markdown-mode' when it is installed, else `text-mode'.  With
`memory-lsp-auto-start', starts the memory-lsp server via Eglot."
  (when (and memory-lsp-auto-start buffer-file-name)
    (eglot-ensure)))

;; The agents' files first, so that the memory files' entry, added after
;; it, comes before it: `.memory/AGENTS.md' is a memory file.
;;;###autoload
(add-to-list 'auto-mode-alist (cons memory-lsp-agent-file-regexp 'memory-lsp-agent-mode))
;;;###autoload
(add-to-list 'auto-mode-alist '("/\\.memory/[^/]+\\.md\\'" . memory-lsp-mode))

(defun memory-lsp--contact (&optional _interactive _project)
  "The Eglot contact for memory-lsp: the program and its arguments."
  `(,(if (file-name-absolute-p memory-lsp-program) ; also "~/..."
          (expand-file-name memory-lsp-program)
        memory-lsp-program)
    "serve" "--stdio" ,@memory-lsp-server-args
    ,@(and memory-lsp-initialization-options
           (list :initializationOptions memory-lsp-initialization-options))))

;; Ahead of every other entry: eglot takes the first entry whose mode
;; matches, and a derived mode matches its parent's (markdown-mode) too.
(add-to-list 'eglot-server-programs
             '(((memory-lsp-mode :language-id "markdown")
                (memory-lsp-agent-mode :language-id "markdown"))
               . memory-lsp--contact))

;;;; Roots and projects

(defun memory-lsp--memory-file-p (file)
  "Non-nil if FILE is a `.md' file directly inside a `.memory' folder."
  (and file (string-match-p memory-lsp-file-regexp (expand-file-name file))))

(defun memory-lsp--agent-root (file)
  "The workspace of FILE when it is an agent's instruction file, else nil.
The nearest folder at or above the one it names a root file of that
holds `.memory' or `.git', else that folder.  The server finds the
workspace itself; this picks Eglot's project, so one server serves it
and the memory files."
  (when (and file (not (memory-lsp--memory-file-p file)))
    (let ((file (expand-file-name file))
          (case-fold-search nil))
      (when (string-match memory-lsp-agent-file-regexp file)
        (let ((named (file-name-as-directory (substring file 0 (match-beginning 0)))))
          (file-name-as-directory
           (expand-file-name
            (or (locate-dominating-file
                 named (lambda (d)
                         (or (file-directory-p (expand-file-name ".memory" d))
                             (file-exists-p (expand-file-name ".git" d)))))
                named))))))))

(defun memory-lsp--root (&optional dir)
  "The folder holding `.memory' for DIR (default: the current buffer's).
For a memory file this is the parent of its `.memory' folder, for an
agent's instruction file its workspace; elsewhere the nearest folder
upwards that holds a `.memory' folder, or nil."
  (let ((file (and (null dir) buffer-file-name)))
    (if (memory-lsp--memory-file-p file)
        (file-name-directory
         (directory-file-name (file-name-directory (expand-file-name file))))
      (or (memory-lsp--agent-root file)
          (let* ((dir (expand-file-name (or dir default-directory)))
                 (dir (if (string= (file-name-nondirectory (directory-file-name dir))
                                   ".memory")
                          (file-name-directory (directory-file-name dir))
                        dir)))
            (when-let ((found (locate-dominating-file
                               dir (lambda (d)
                                     (file-directory-p (expand-file-name ".memory" d))))))
              (file-name-as-directory (expand-file-name found))))))))

;; Eglot asks for the project twice: when it starts a server (from the
;; memory buffer, `default-directory' being `.memory/') and, to decide
;; which server manages a buffer, from inside `eglot--connect', which
;; Eglot 1.9 runs with `default-directory' let-bound to the project root
;; in the buffer that started it.  Both must give the same project, or
;; the server, registered under the first, is not found under the
;; second: the first memory file of a git repository got no diagnostics
;; (`.memory/' gave our transient project, the root gave the `vc' one).
;; So a memory buffer asking about its own root gets the same answer as
;; one asking about its `.memory' folder.

(defun memory-lsp--project-find (dir)
  "In Eglot's context, the project of a `.memory' folder DIR is its parent.
So is the project of that parent when the current buffer is a memory
file directly inside DIR/.memory, and the project of any folder of an
agent's instruction file's workspace (its `.cursor/rules/', say) when
the current buffer is that file: the project of the workspace's memory
files, so that one server serves both.  For `project-find-functions';
see `memory-lsp-project-root'."
  (when (and memory-lsp-project-root
             (bound-and-true-p eglot-lsp-context))
    (let* ((dir (file-name-as-directory (expand-file-name dir)))
           (memory-dir-p (string= (file-name-nondirectory (directory-file-name dir))
                                  ".memory"))
           (agent (memory-lsp--agent-root buffer-file-name))
           (own (or agent
                    (and (memory-lsp--memory-file-p buffer-file-name)
                         (memory-lsp--root)))))
      (cond
       ((and own (or (file-equal-p dir own)
                     (and memory-dir-p
                          (file-equal-p dir (expand-file-name ".memory" own)))
                     (and agent (file-in-directory-p dir own))))
        (cons 'transient own))
       (memory-dir-p
        (cons 'transient (file-name-directory (directory-file-name dir))))))))

(add-hook 'project-find-functions #'memory-lsp--project-find -90)

;;;; Talking to the server

(defun memory-lsp--buffers (&optional root)
  "Live buffers in `memory-lsp-mode' (under ROOT, when given)."
  (cl-loop for b in (buffer-list)
           when (and (eq (buffer-local-value 'major-mode b) 'memory-lsp-mode)
                     (buffer-file-name b)
                     (or (null root)
                         (with-current-buffer b
                           (equal (memory-lsp--root) root))))
           collect b))

(defun memory-lsp--buffer-server (buffer)
  "The live memory-lsp Eglot server of BUFFER, or nil."
  (with-current-buffer buffer
    (let ((server (and (derived-mode-p 'memory-lsp-mode) (eglot-current-server))))
      (and server (jsonrpc-running-p server) server))))

(defun memory-lsp--server (root)
  "A live memory-lsp server for ROOT, started if need be."
  (or (and (derived-mode-p 'memory-lsp-mode)
           (memory-lsp--buffer-server (current-buffer)))
      (cl-some #'memory-lsp--buffer-server (memory-lsp--buffers root))
      (let* ((file (and root (car (directory-files
                                   (expand-file-name ".memory" root) t
                                   "\\.md\\'"))))
             (buffer (or (car (memory-lsp--buffers root))
                         (and file (find-file-noselect file)))))
        (unless buffer
          (user-error "No memory-lsp server: open a file in .memory/ first"))
        (with-current-buffer buffer
          (unless (derived-mode-p 'memory-lsp-mode)
            (user-error "%s is not in memory-lsp-mode" (buffer-name)))
          (call-interactively #'eglot)
          (or (memory-lsp--buffer-server buffer)
              (user-error "The memory-lsp server did not start; see %s"
                          "`eglot-events-buffer'"))))))

(defun memory-lsp--flush-changes (root)
  "Send the server the pending edits of the memory buffers under ROOT.
Eglot sends changes when Emacs is idle; a command must not run on the
server's older copy of a buffer (its edits carry the buffer version)."
  (dolist (b (memory-lsp--buffers root))
    (with-current-buffer b
      (when (and (bound-and-true-p eglot--managed-mode)
                 (fboundp 'eglot--signal-textDocument/didChange))
        (eglot--signal-textDocument/didChange)))))

(defun memory-lsp--read-rest (server)
  "Handle the messages from SERVER that arrived with a reply just read.
The jsonrpc of Emacs 28 (1.0.14) reads the reply to a synchronous
request in its process filter and leaves the filter by a `throw':
messages that came in the same chunk after the reply stay unread
until the server writes again.  The server may not: when one of them
is its `workspace/configuration' request, it waits for the answer
\(10 s), and diagnostics it published meanwhile wait with it.  Call
this after a synchronous request, outside any process filter; it
feeds the filter nothing, which makes it read what it holds."
  (let ((proc (and server (jsonrpc--process server))))
    (when (and (process-live-p proc)
               (buffer-live-p (process-buffer proc))
               (> (buffer-size (process-buffer proc)) 0)
               (process-filter proc))
      (funcall (process-filter proc) proc ""))))

(defun memory-lsp-execute (command args &optional root)
  "Run the server COMMAND with ARGS (a plist) and return its result.
ROOT is the folder holding `.memory' (default: the current buffer's);
it is passed to the server as the `root' argument.  Works with Eglot
1.9 (Emacs 28, `eglot-execute-command') and later (`eglot-execute')."
  (let* ((root (or root (memory-lsp--root)))
         (server (memory-lsp--server root))
         (args (if root
                   (append args (list :root (directory-file-name
                                             (file-local-name root))))
                 args))
         ;; Eglot 1.16 renamed the option (the old name is an alias).
         (confirm (if (boundp 'eglot-confirm-server-edits)
                      'eglot-confirm-server-edits
                    'eglot-confirm-server-initiated-edits)))
    (memory-lsp--flush-changes root)
    (condition-case err
        (unwind-protect
            (cl-progv (and (not memory-lsp-confirm-edits) (list confirm)) '(nil)
              (if (fboundp 'eglot-execute)
                  (eglot-execute server (list :title command :command command
                                              :arguments (vector args)))
                (with-no-warnings
                  (eglot-execute-command server command (vector args)))))
          (memory-lsp--read-rest server))
      (jsonrpc-error
       ;; The server's refusal ("content contains a line break", ...).
       (let ((msg (and (listp (cdr err))
                       (alist-get 'jsonrpc-error-message (cdr err)))))
         (if (stringp msg)
             (user-error "memory-lsp: %s" msg)
           (signal (car err) (cdr err))))))))

(defun memory-lsp--apply-action (server action)
  "Apply the CodeAction (or Command) ACTION from SERVER."
  (unwind-protect
      (if (fboundp 'eglot-execute)
          (eglot-execute server action)
        ;; Eglot 1.9: apply the edit, then run the command, as
        ;; `eglot--read-execute-code-action' does.
        (let ((edit (plist-get action :edit))
              (command (plist-get action :command))
              (apply-edit 'eglot--apply-workspace-edit))
          (when edit (funcall apply-edit edit))
          (cond ((stringp command)
                 (with-no-warnings
                   (eglot-execute-command server command
                                          (plist-get action :arguments))))
                (command
                 (with-no-warnings
                   (eglot-execute-command server (plist-get command :command)
                                          (plist-get command :arguments)))))))
    (memory-lsp--read-rest server)))

(defun memory-lsp-code-actions (kind &optional beg end)
  "The code actions of KIND from the server between BEG and END.
BEG and END default to the region when active, else point."
  (let* ((region (use-region-p))
         (beg (or beg (if region (region-beginning) (point))))
         (end (or end (if region (region-end) (point)))))
    (unwind-protect
        (eglot-code-actions beg end kind)
      (memory-lsp--read-rest (eglot-current-server)))))

;;;; Server edits to buffers whose file the server has just written

;; The server writes every change to disk first, where other agents read
;; it, and then sends the same change to the open buffer; when another
;; writer (an agent, HackLM) changes the file, it sends the buffer an edit
;; that brings that writer's entries in.  Either way the file on disk is
;; newer than what the buffer was visited from, and Eglot 1.9 applies the
;; edit through `find-file-noselect', which then asks "File changed on
;; disk.  Reread from disk?" (or "Discard your edits?").  Rereading makes
;; Eglot apply the edit to the reread text, at the old place (a duplicated
;; or overwritten line); discarding loses the user's edits; and a question
;; in the middle of an edit fails outright in batch Emacs.  None of it is
;; right here: the edit is exactly what brings the buffer in step with the
;; disk, keeping the buffer's own unsaved edits.  So, for memory buffers
;; only, the buffer is told the file's current modification time before
;; the edit, and afterwards, when its text equals the file, it is marked
;; unmodified, so that saving it asks nothing either.

(defun memory-lsp--edit-paths (wedit)
  "The file names a WorkspaceEdit WEDIT changes."
  (let ((paths nil))
    (cl-loop for (uri _edits) on (plist-get wedit :changes) by #'cddr
             do (push (eglot--uri-to-path uri) paths))
    (mapc (lambda (dc)
            (let ((uri (plist-get (plist-get dc :textDocument) :uri)))
              (when uri (push (eglot--uri-to-path uri) paths))))
          (plist-get wedit :documentChanges))
    paths))

(defun memory-lsp--same-as-file-p ()
  "Non-nil if the current buffer's text equals its file on disk."
  (let ((buf (current-buffer))
        (file buffer-file-name))
    (and file (file-exists-p file)
         (with-temp-buffer
           (insert-file-contents file)
           (zerop (compare-buffer-substrings buf nil nil (current-buffer) nil nil))))))

(defun memory-lsp--apply-workspace-edit (apply wedit &rest args)
  "Run APPLY on WEDIT and ARGS with memory buffers in step with their files.
An edit of memory files alone is applied without Eglot's confirmation
unless `memory-lsp-confirm-edits' is set: the server sends one to bring
another writer's entries into a buffer, unasked, and refusing it only
delays them."
  (let* ((paths (memory-lsp--edit-paths wedit))
         (buffers (delq nil (mapcar (lambda (p)
                                      (and (memory-lsp--memory-file-p p)
                                           (find-buffer-visiting p)))
                                    paths))))
    (when (and paths (not memory-lsp-confirm-edits)
               (cl-every #'memory-lsp--memory-file-p paths))
      (setq args (list nil)))
    (dolist (b buffers)
      (with-current-buffer b
        (unless (verify-visited-file-modtime b)
          (set-visited-file-modtime))))
    (prog1 (apply apply wedit args)
      (dolist (b buffers)
        (when (buffer-live-p b)
          (with-current-buffer b
            (when (and (buffer-modified-p) (memory-lsp--same-as-file-p))
              (set-buffer-modified-p nil)
              (set-visited-file-modtime))
            ;; Report the edited text now.  The server waits for it (3 s)
            ;; before its next edit of the buffer, and plans that edit on
            ;; the version it has seen; Eglot 1.9 would send it only when
            ;; Emacs is idle, never while a command such as
            ;; `memory-lsp-store' waits for its reply, so the store's edit
            ;; came for an older version and Eglot refused it.
            (when (and (bound-and-true-p eglot--managed-mode)
                       (fboundp 'eglot--signal-textDocument/didChange))
              (eglot--signal-textDocument/didChange))))))))

(advice-add 'eglot--apply-workspace-edit :around #'memory-lsp--apply-workspace-edit)

;;;; Commands

(defun memory-lsp--read-category ()
  "Read a category, defaulting to the current memory file's."
  (let* ((file (and buffer-file-name
                    (memory-lsp--memory-file-p buffer-file-name)
                    (downcase (file-name-base buffer-file-name))))
         (default (cl-find-if (lambda (c)
                                (member file (list (downcase c)
                                                   (downcase (concat c "s")))))
                              memory-lsp-categories)))
    (completing-read (format-prompt "Category" default)
                     memory-lsp-categories nil t nil nil default)))

;;;###autoload
(defun memory-lsp-store (category content &optional slug)
  "Store CONTENT under CATEGORY (with SLUG, if non-empty) via memory-lsp.
This is HackLM's storeMemory: the server deduplicates, updates a
similar entry or stores a new one, and says which in a message.
Returns the server's result, a plist with :action and :message."
  (interactive
   (list (memory-lsp--read-category)
         (read-string "Memory: "
                      (and (use-region-p)
                           (string-trim (buffer-substring-no-properties
                                         (region-beginning) (region-end)))))
         (read-string "Slug (optional, kebab-case): ")))
  (unless (member category memory-lsp-categories)
    (user-error "Unknown category %S; one of %s" category
                (string-join memory-lsp-categories ", ")))
  (when (string-empty-p (string-trim content))
    (user-error "Nothing to store"))
  (let* ((root (memory-lsp--root))
         ;; First, as it may visit a memory file to start the server.
         (_server (memory-lsp--server root))
         (clean (and memory-lsp-save-after-store
                     (cl-remove-if #'buffer-modified-p (memory-lsp--buffers root))))
         (args (append (list :category category :content content)
                       (and slug (not (string-empty-p (string-trim slug)))
                            (list :slug (string-trim slug)))))
         (result (memory-lsp-execute "memory.storeMemory" args root)))
    (dolist (b clean)
      (when (and (buffer-live-p b) (buffer-modified-p b))
        (with-current-buffer b
          (let ((memory-lsp-fix-all-on-save nil))
            (save-buffer)))))
    (message "%s" (or (plist-get result :message) result))
    result))

(defvar-local memory-lsp--query nil
  "The (QUERY CATEGORY ROOT) shown in a `memory-lsp-query-mode' buffer.")

(defvar memory-lsp-query-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "g") #'revert-buffer)
    map)
  "Keymap for `memory-lsp-query-mode'.")

(define-derived-mode memory-lsp-query-mode compilation-mode "Memory-Query"
  "Results of `memory-lsp-query'.
One line per memory: `file:line: [Category] text'.
\\<memory-lsp-query-mode-map>\\[revert-buffer] runs the query again; \
\\[compile-goto-error] visits an entry.

\\{memory-lsp-query-mode-map}"
  (setq-local compilation-error-regexp-alist '(memory-lsp))
  (setq-local compilation-error-regexp-alist-alist
              '((memory-lsp "^\\([^:\n]+\\):\\([0-9]+\\): \\[" 1 2 nil 0)))
  (setq-local revert-buffer-function #'memory-lsp--query-revert))

(defun memory-lsp--query-revert (&rest _)
  "Run the query of this `memory-lsp-query-mode' buffer again."
  (pcase-let ((`(,query ,category ,root) memory-lsp--query))
    (let ((default-directory root))
      (memory-lsp-query query category))))

;;;###autoload
(defun memory-lsp-query (query &optional category)
  "Search the memories for QUERY (in CATEGORY only, if non-nil).
This is HackLM's queryMemory.  The results go to the buffer
`*memory-lsp query*', one `file:line: [Category] content' line each,
which \\[next-error] and RET visit.  With a prefix argument, ask for
a category.  Returns the server's result plist."
  (interactive
   (list (read-string "Query memories: ")
         (and current-prefix-arg (memory-lsp--read-category))))
  (let* ((root (memory-lsp--root))
         (args (append (list :query query)
                       (and category (not (string-empty-p category))
                            (list :category category))
                       (and memory-lsp-query-limit
                            (list :limit memory-lsp-query-limit))))
         (result (memory-lsp-execute "memory.queryMemory" args root))
         (results (append (plist-get result :results) nil))
         (buffer (get-buffer-create "*memory-lsp query*")))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (memory-lsp-query-mode)
        (erase-buffer)
        (setq default-directory (or root default-directory))
        (setq memory-lsp--query (list query category default-directory))
        (insert (format "Memories matching %S%s in %s: %d\n\n" query
                        (if category (format " (%s)" category) "")
                        (abbreviate-file-name default-directory)
                        (length results)))
        (dolist (r results)
          (let ((path (plist-get r :path))
                ;; What the repository contradicts in the entry, as the
                ;; CLI prints it.
                (stale (append (plist-get r :stale) nil)))
            (insert (format "%s:%s: [%s] %s%s\n"
                            (if (stringp path)
                                (file-relative-name path default-directory)
                              (concat ".memory/" (plist-get r :file)))
                            (plist-get r :line)
                            (plist-get r :category)
                            (plist-get r :content)
                            (if stale
                                (format " (stale: %s)" (mapconcat #'identity stale "; "))
                              "")))))
        (goto-char (point-min))))
    (if results
        (display-buffer buffer)
      (message "%s" (or (plist-get result :message) "No memories found")))
    result))

;;;###autoload
(defun memory-lsp-fix-all ()
  "Apply every safe fix of this memory file (`source.fixAll.memory').
The same result as `memory-lsp check --fix'."
  (interactive)
  (unless (derived-mode-p 'memory-lsp-mode)
    (user-error "Not a memory file"))
  (let* ((server (memory-lsp--server (memory-lsp--root)))
         (actions (memory-lsp-code-actions "source.fixAll.memory"
                                           (point-min) (point-max))))
    (if (null actions)
        (when (called-interactively-p 'interactive)
          (message "memory-lsp: nothing to fix"))
      (dolist (a actions)
        (memory-lsp--apply-action server a)))
    actions))

(defun memory-lsp--fix-all-on-save ()
  "Run `memory-lsp-fix-all' when `memory-lsp-fix-all-on-save' is non-nil."
  (when (and memory-lsp-fix-all-on-save
             (memory-lsp--buffer-server (current-buffer)))
    (with-demoted-errors "memory-lsp fix-all on save: %S"
      (memory-lsp-fix-all))))

(defun memory-lsp--read-choice (what choices)
  "Read one of CHOICES (strings) for WHAT, the first by default.
The choices are in the prompt and, in an interactive session, listed in
*Completions* at once: plain `completing-read' shows nothing until TAB."
  (minibuffer-with-setup-hook
      (lambda ()
        (unless noninteractive
          (minibuffer-completion-help)))
    (completing-read (format "%s (%s) [%s]: " what (mapconcat #'identity choices ", ") (car choices))
                     choices nil t nil nil (car choices))))

;;;###autoload
(defun memory-lsp-quickfix (&optional title)
  "Apply a quick fix of the finding at point (or in the region).
With several fixes, ask which; from Lisp, TITLE picks one by title.
Works on Eglot 1.9, whose `eglot-code-action-quickfix' only lists."
  (interactive)
  (let* ((server (memory-lsp--server (memory-lsp--root)))
         (actions (memory-lsp-code-actions "quickfix"))
         (titles (mapcar (lambda (a) (plist-get a :title)) actions))
         (title (cond (title)
                      ((null actions) (user-error "No quick fix here"))
                      ((null (cdr actions)) (car titles))
                      (t (memory-lsp--read-choice "Quick fix" titles))))
         (action (cl-find title actions :key (lambda (a) (plist-get a :title))
                          :test #'equal)))
    (unless action
      (user-error "No quick fix %S here; there are %S" title titles))
    (memory-lsp--apply-action server action)
    action))

(provide 'memory-lsp)
;;; memory-lsp.el ends here
