"""Where the examples find the scorer: flags, else the endpoints file bin/mmgr run writes."""
import argparse

from mmgr_client import Evaluator, read_endpoints


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--bootstrap-servers", help="default: from --endpoints")
    ap.add_argument("--schema-registry-url", help="default: from --endpoints")
    ap.add_argument("--topic-prefix", help="default: from --endpoints, else mmgr.")
    ap.add_argument("--endpoints", default=".mmgr/endpoints.properties",
                    help="where bin/mmgr run wrote its endpoints (used for what is not given)")


def evaluator(args: argparse.Namespace, model: str) -> Evaluator:
    """The run's Evaluator; MmgrError when the scorer's Kafka or registry cannot be reached."""
    where = {} if args.bootstrap_servers and args.schema_registry_url else read_endpoints(args.endpoints)
    return Evaluator(args.bootstrap_servers or where["bootstrap_servers"],
                     args.schema_registry_url or where["schema_registry_url"], run_id=args.run_id,
                     model=model, topic_prefix=args.topic_prefix or where.get("topic_prefix", "mmgr."))
