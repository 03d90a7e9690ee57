"""A domain's tasks, a page at a time (``list_tasks``) or all of them (``iter_tasks`` walks the pages).

TAUMESH_API_URL=http://127.0.0.1:8000 TAUMESH_API_KEY=tmk_… python examples/list_tasks.py
"""

from taumesh.client import TaumeshClient


def main() -> None:
    """The first page of retail's tasks, then a count of all of them."""
    with TaumeshClient() as client:
        page = client.list_tasks("retail", page=1, page_size=5)
        print(f"{page.env}/{page.task_split}: {page.total} tasks; page {page.page}, next {page.next_page}")
        for task in page.tasks:
            print(f"  {task.task_id} {task.user_id} ({task.action_count} actions): {task.instruction_preview[:60]}…")
        actions = sum(task.action_count for task in client.iter_tasks("retail"))
        print(f"{actions} gold actions over the whole split")


if __name__ == "__main__":
    main()
