//! UNTESTED SKELETON of a Zed extension that starts memory-lsp.
//!
//! Never compiled: crates.io (zed_extension_api) was not reachable where it
//! was written, and no Zed was available to load it. Based on the
//! zed_extension_api `Extension` trait and `settings::LspSettings`.
//!
//! Binary: `lsp.memory-lsp.binary.path` if set, else `memory-lsp` on the
//! worktree's PATH. Settings: `lsp.memory-lsp.initialization_options` and
//! `lsp.memory-lsp.settings` (the server's settings, flat or under "memory").

use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result};

const SERVER: &str = "memory-lsp";
const SECTION: &str = "memory";

struct MemoryLspExtension;

/// The user's `settings`, shaped so that Zed's answer to a
/// workspace/configuration pull of section "memory" finds them:
/// `{"memory": {...}}` whether the user nested them or not.
fn nested(settings: serde_json::Value) -> serde_json::Value {
    match settings {
        serde_json::Value::Object(ref m) if m.contains_key(SECTION) => settings,
        other => serde_json::json!({ SECTION: other }),
    }
}

impl zed::Extension for MemoryLspExtension {
    fn new() -> Self {
        MemoryLspExtension
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(SERVER, worktree)
            .ok()
            .and_then(|s| s.binary);
        let path = binary
            .as_ref()
            .and_then(|b| b.path.clone())
            .or_else(|| worktree.which(SERVER))
            .ok_or_else(|| {
                "memory-lsp not found on PATH; install it (go install github.com/memory-lsp/memory-lsp/cmd/memory-lsp@latest) or set lsp.memory-lsp.binary.path".to_string()
            })?;
        let args = binary
            .as_ref()
            .and_then(|b| b.arguments.clone())
            .unwrap_or_else(|| vec!["serve".into(), "--stdio".into()]);
        Ok(zed::Command {
            command: path,
            args,
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        let s = LspSettings::for_worktree(SERVER, worktree).ok();
        // initialization_options if given, else the settings (the server
        // accepts them flat or nested under "memory").
        Ok(s.and_then(|s| s.initialization_options.or(s.settings)))
    }

    fn language_server_workspace_configuration(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        let s = LspSettings::for_worktree(SERVER, worktree).ok();
        Ok(s.and_then(|s| s.settings).map(nested))
    }
}

zed::register_extension!(MemoryLspExtension);
