// The run's output folder, made before anything runs so that a folder that cannot be used is
// refused at once rather than after the whole simulation, and so that no run ever writes into a
// folder an earlier run made unless the user names it.
#pragma once

#include <string>

namespace ssd::tools {

struct OutputFolder {
  std::string path;
  bool created = false;  // this run made it (and may remove it again when it fails)
};

// `requested` as given, created if missing; "" means results/<date>-<time>, with -2, -3, ...
// added when a folder of that name exists. Throws std::runtime_error saying why the folder
// cannot be used (a file of that name, no permission, a read-only file system...).
OutputFolder prepare_output_folder(const std::string& requested);

// After a run that ended in an error: removes the folder if this run made it and left it empty.
void discard_output_folder(const OutputFolder& folder);

}  // namespace ssd::tools
