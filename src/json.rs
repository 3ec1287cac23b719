//! JSON that anyone may have written (proof files, batch files, stripped files, aggregated
//! folders): a refusal names the JSON path of the field it is about
//! (`public_inputs[3].msg_hash: invalid type: null, expected a string`), and never echoes a
//! long value in full.
//!
//! Paths come from `serde_path_to_error` (dtolnay's companion to serde_json: it wraps the
//! deserializer and records where it stood when the error arose), so every derived reader
//! gets them without a hand-written visitor.

use serde::de::DeserializeOwned;

/// The most characters of a value or message shown back to the user.
pub const MAX_SHOWN: usize = 120;

/// `text` parsed as `T`, or the error with its JSON path (`.` for the whole document) and
/// clipped to [`MAX_SHOWN`] characters.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| describe(&e))?;
    // What follows the document (serde_json's own `from_str` refuses it too).
    de.end().map_err(|e| clip(&e.to_string()))?;
    Ok(value)
}

fn describe(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    let inner = clip(&e.inner().to_string());
    if path == "." || path.is_empty() {
        inner
    } else {
        format!("{}: {inner}", clip(&path))
    }
}

/// `s`, or its first [`MAX_SHOWN`] characters and how long it was.
pub fn clip(s: &str) -> String {
    match s.char_indices().nth(MAX_SHOWN) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes in all)", &s[..cut], s.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Rec {
        msg_hash: String,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct File {
        version: u32,
        public_inputs: Vec<Rec>,
    }

    #[test]
    fn errors_name_the_field_path() {
        let e =
            parse::<File>(r#"{"version":3,"public_inputs":[{"msg_hash":"a"},{"msg_hash":null}]}"#)
                .unwrap_err();
        assert!(
            e.starts_with("public_inputs[1].msg_hash: invalid type: null"),
            "{e}"
        );
        let e = parse::<File>(r#"{"version":3,"public_inputs":[{}]}"#).unwrap_err();
        assert!(
            e.starts_with("public_inputs[0]: missing field `msg_hash`"),
            "{e}"
        );
        let e = parse::<File>(r#"{"version":4294967296,"public_inputs":[]}"#).unwrap_err();
        assert!(
            e.starts_with("version: invalid value: integer `4294967296`"),
            "{e}"
        );
        let e = parse::<File>(r#"{"version":3,"public_inputs":[],"version":3}"#).unwrap_err();
        assert!(e.contains("duplicate field `version`"), "{e}");
        let e = parse::<File>(r#"{"version":3,"public_inputs":[]} {}"#).unwrap_err();
        assert!(e.contains("trailing"), "{e}");
    }

    #[test]
    fn long_values_are_clipped() {
        let long = "x".repeat(1 << 20);
        let text = format!(r#"{{"version":"{long}","public_inputs":[]}}"#);
        let e = parse::<File>(&text).unwrap_err();
        assert!(e.len() < 2 * MAX_SHOWN, "{} bytes", e.len());
        assert!(clip(&long).ends_with(&format!("({} bytes in all)", 1 << 20)));
        assert_eq!(clip("short"), "short");
        // A multi-byte character at the cut is not split.
        assert!(clip(&"é".repeat(200)).starts_with('é'));
    }
}
