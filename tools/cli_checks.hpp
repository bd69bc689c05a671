// What the commands check before any work, shared by every command that proves, sets up or writes
// files (tools/cuzk.cpp, porep_commands, snap_commands, post_commands): output paths (their folder
// exists and is writable, none names an input or another output), the .params path of a key written
// under Filecoin's file name, and a verifying key's count of public inputs against the circuit's.
// Every refusal is Error(kInvalidArgument) (exit 2) naming the path, thrown before any file is touched.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "formats/atomic_file.hpp"
#include "groth16/key.hpp"

namespace cuzk::cli {

/// A CLI11 check for an option held in a uint64_t (seeds, sector numbers): a decimal whole number from 0
/// to 2^64 − 1. Without it CLI11 2.1 takes "-1" as 2^64 − 1 and a larger number as 2^64 − 1, silently.
CLI::Validator unsigned64();

/// Refuses, before any work is done, outputs that would fail or destroy something at the end: an output
/// whose folder does not exist or is not writable, an output that is a folder, an output that is the same
/// file as an input (the same file identity, st_dev and st_ino, through any spelling, symbolic or hard
/// link; or the same resolved path), and two outputs that are the same file. Empty paths are skipped.
/// Throws Error(kInvalidArgument) naming the output.
void check_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

/// Creates the folder `dir` when it does not exist; its parent folder must exist. Throws
/// Error(kInvalidArgument) "<dir>: …" when the parent is missing or `dir` is an existing file, Error(kIo)
/// when the folder cannot be created.
void make_folder(const std::string& dir);

/// Where `setup --porep`, `snap setup` and `post setup` write a key whose Filecoin file name is
/// `stem` + ".params": `arg` itself when it ends in ".params"; else `arg` is a folder (an existing one, or
/// one this creates: make_folder) and the key goes to arg/stem.params. Throws as make_folder does.
std::string key_output_path(const std::string& arg, const std::string& stem);

/// Refuses a verifying key made for another circuit: `vk` must have `expected` public inputs (ONE not
/// counted), those of `circuit` (e.g. "the 2KiB PoRep circuit"). Throws Error(kInvalidArgument)
/// "<vk_path>: a key for another circuit: expected N public inputs (circuit), the key has M".
void check_vk_inputs(const VerifyingKey& vk, size_t expected, const std::string& vk_path,
                     const std::string& circuit);

/// Writes `files`, each atomically (a temporary next to it, then a rename), without the folder lock of
/// write_files_atomically and so without leaving a `.cuzk.lock` behind: for the fake-input commands,
/// whose outputs need no pairing with a concurrent writer's. Every temporary is written and fsync'ed
/// before the first rename (a failure while writing, e.g. a full disk, leaves every destination
/// untouched); the renames go in the order
/// given, so the file that names the others goes last. Throws Error(kIo) naming the path.
void write_files_unlocked(const std::vector<FileToWrite>& files);

}  // namespace cuzk::cli
