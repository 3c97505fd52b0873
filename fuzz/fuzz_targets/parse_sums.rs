//! Any bytes given to the `.sum` parser: an error with a position inside the text and
//! a one-line message, or a model that passes the library's own model check.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "errors.rs"]
mod errors;
use polytile::sums;

fuzz_target!(|data: &[u8]| {
    match sums::parse_bytes(data, "fuzz.sum") {
        Err(e) => errors::check(&e.to_string(), e.position(), data),
        Ok(model) => {
            if let Err(e) = model.check() {
                panic!("the parser made a model its own check refuses: {e}");
            }
        }
    }
});
