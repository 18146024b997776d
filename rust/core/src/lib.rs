//! bleuscope's compiled core: text or token ids in, BLEU, chrF and TER statistics rows, ROUGE counts and
//! the string metrics (GLEU, Self-BLEU, CharacTER, EED) out. Pure Rust:
//! the Python module `bleuscope._core` is the separate `bleuscope-python` crate (rust/python).

pub mod character;
pub mod chrf;
pub mod count;
mod cpu;
mod dense;
pub mod eed;
pub mod files;
pub mod gleu;
mod live;
pub mod meteor;
pub mod pairwise;
pub mod par;
pub mod porter;
pub mod resample;
pub mod rouge;
pub mod score;
pub mod selfbleu;
mod table;
pub mod ter;
pub mod text;
pub mod tok;
pub mod wer;
pub mod wordnet;
pub mod words;

#[cfg(test)]
mod testgen;
