//! bleuscope's compiled core: text or token ids in, BLEU, chrF and TER statistics rows and ROUGE counts out. Pure Rust:
//! the Python module `bleuscope._core` is the separate `bleuscope-python` crate (rust/python).

pub mod chrf;
pub mod count;
pub mod cpu;
pub mod dense;
pub mod files;
pub mod meteor;
pub mod pairwise;
pub mod par;
pub mod porter;
pub mod resample;
pub mod rouge;
pub mod score;
pub mod table;
pub mod ter;
pub mod text;
pub mod tok;
pub mod wer;
pub mod wordnet;
