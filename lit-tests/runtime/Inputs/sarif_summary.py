#!/usr/bin/env python3
"""One line per fact of a SARIF log that the tests check, for FileCheck:

  root <originalUriBaseIds.PROJECTROOT.uri>
  rule <id> <name>                            (each of the driver's rules)
  result <ruleId> <level> <uriBaseId>:<uri>:<line>:<column> | <message>
    flow <uri>:<line> -> <uri>:<line> ...     (its code flow, if any)
    related <id> <uri>:<line> <message>       (each related location)
    fingerprint <value>
    state <baselineState> <kind>              (with a baseline)
"""
import json
import sys


def place(location):
    physical = location["physicalLocation"]
    artifact = physical["artifactLocation"]
    region = physical.get("region", {})
    return "%s:%s:%s" % (artifact["uri"], region.get("startLine", "?"),
                         region.get("startColumn", "?"))


log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0", log["version"]
for run in log["runs"]:
    for name, base in run.get("originalUriBaseIds", {}).items():
        print("root %s %s" % (name, base.get("uri", "")))
    for rule in run["tool"]["driver"].get("rules", []):
        print("rule %s %s" % (rule["id"], rule["name"]))
    for result in run["results"]:
        locations = result.get("locations", [])
        where = ("%s:%s" % (locations[0]["physicalLocation"]["artifactLocation"]
                            .get("uriBaseId", "-"), place(locations[0]))
                 if locations else "nowhere")
        print("result %s %s %s | %s" % (result["ruleId"], result["level"], where,
                                        result["message"]["text"]))
        for flow in result.get("codeFlows", []):
            for thread in flow["threadFlows"]:
                print("  flow " + " -> ".join(
                    place(step["location"]) for step in thread["locations"]))
        for related in result.get("relatedLocations", []):
            print("  related %d %s %s" % (related["id"], place(related),
                                          related["message"]["text"]))
        for value in result.get("partialFingerprints", {}).values():
            print("  fingerprint " + value)
        if "baselineState" in result:
            print("  state %s %s" % (result["baselineState"],
                                     result.get("kind", "fail")))
